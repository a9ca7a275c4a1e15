# md's RAID 5/6 writes as the simulator models them (docs/simulator.md, "Arrays";
# src/sim/sim_array.c, tests/unit/test_sim_array.c): which members md reads for a
# small write. Each case makes an array of scsi_debug disks (64 KiB chunks, no
# bitmap, --assume-clean so that nothing resyncs), writes 64 KiB chunks with
# O_DIRECT into stripes whose parity sits on the last member (left-symmetric:
# every n-th stripe), and counts what each member read (/sys/block/X/stat).

# md_reads LEVEL N STRIDE COUNT: chunks read per member for 8 writes of COUNT
# chunks, one at a time, at chunk 0 of every STRIDE chunks; "m0:R0 m1:R1 ..."
md_reads() {
	_level=$1 _n=$2 _stride=$3 _count=$4
	sdebug_load $_n dev_size_mb=16 add_host=$_n per_host_store=1 > /tmp/setup.out 2>&1 ||
		fail "scsi_debug: $(cat /tmp/setup.out)"
	set -- $SDEBUG
	_devs=""
	for _d in "$@"; do _devs="$_devs /dev/$_d"; done
	must mdadm --create /dev/md9 --run --assume-clean --bitmap=none --level=$_level \
		--raid-devices=$_n --chunk=64 $_devs
	for _d in "$@"; do eval "_b_$_d=\$(awk '{print \$3}' /sys/block/$_d/stat)"; done
	_j=0
	while [ $_j -lt 8 ]; do
		dd if=/dev/zero of=/dev/md9 bs=64k count=$_count seek=$((_j * _stride)) \
			oflag=direct 2> /dev/null || fail "dd into /dev/md9 failed"
		_j=$((_j + 1))
	done
	MD_READS=""
	_i=0
	for _d in "$@"; do
		eval "_b=\$_b_$_d"
		MD_READS="$MD_READS m$_i:$(( ($(awk '{print $3}' /sys/block/$_d/stat) - _b) / 128 ))"
		_i=$((_i + 1))
	done
	MD_READS=${MD_READS# }
	run mdadm --stop /dev/md9
	run mdadm --zero-superblock $_devs
}

# RAID 5 of 4, one chunk (data on m0, parity on m3): read-modify-write and
# reconstruct-write would both read 2 chunks; md takes reconstruct-write (m1, m2).
md_rcw_tie() {
	md_reads 5 4 12 1
	expect_eq "RAID 5 of 4: chunks read per member" "$MD_READS" "m0:0 m1:8 m2:8 m3:0"
}
t md-raid5-of-4-rcw-on-a-tie md_rcw_tie

# RAID 5 of 5, one chunk: read-modify-write reads 2 (m0 and the parity, m4),
# reconstruct-write 3: md takes read-modify-write.
md_rmw() {
	md_reads 5 5 20 1
	expect_eq "RAID 5 of 5: chunks read per member" "$MD_READS" "m0:8 m1:0 m2:0 m3:0 m4:8"
}
t md-raid5-of-5-rmw md_rmw

# RAID 6 of 6 (P on m5, Q on m0, data from m1): 3 against 3, reconstruct-write;
# RAID 6 of 7: read-modify-write reads 3 (data, P, Q) against 4.
md_raid6() {
	md_reads 6 6 24 1
	expect_eq "RAID 6 of 6: chunks read per member" "$MD_READS" "m0:0 m1:0 m2:8 m3:8 m4:8 m5:0"
	md_reads 6 7 35 1
	expect_eq "RAID 6 of 7: chunks read per member" "$MD_READS" \
		"m0:8 m1:8 m2:0 m3:0 m4:0 m5:0 m6:8"
}
t md-raid6-rmw-rcw md_raid6

# The stripe cache: three chunks of a RAID 5 of 4 stripe written one after the
# other read the other two chunks once (for the first write) and nothing more.
md_stripe_cache() {
	md_reads 5 4 12 3
	expect_eq "RAID 5 of 4, chunk by chunk: chunks read per member" "$MD_READS" \
		"m0:0 m1:8 m2:8 m3:0"
}
t md-raid5-stripe-cache md_stripe_cache
