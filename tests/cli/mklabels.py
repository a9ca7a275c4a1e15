#!/usr/bin/env python3
"""mklabels.py KIND FILE [MIB] - a test image holding another layer's label, as libblkid
checks it (magic, offsets, checksums): md superblocks of version 0.90 and 1.0 (at the end of
the device), 1.1 and 1.2 (at its start), or an LVM2 physical volume label (sector 1).
KIND: md0.90 md1.0 md1.1 md1.2 lvm. The rest of the image is zeros (sparse)."""
import struct
import sys

MD_MAGIC = 0xa92b4efc


def md1(f, off):
    # the 256 bytes of a version-1 superblock with no device roles (max_dev 0)
    b = bytearray(256)
    struct.pack_into('<IIII', b, 0, MD_MAGIC, 1, 0, 0)
    b[16:32] = bytes(range(1, 17))  # set_uuid
    b[32:46] = b'host:shortstrk'  # set_name
    struct.pack_into('<Q', b, 144, off // 512)  # super_offset: where it is, in sectors
    s = sum(struct.unpack('<64I', bytes(b)))
    struct.pack_into('<I', b, 216, ((s >> 32) + (s & 0xffffffff)) & 0xffffffff)  # sb_csum
    f.seek(off)
    f.write(b)


def md0(f, off):
    # version 0.90: magic, 0.90.0, a used size of 0 KiB (fits any device)
    f.seek(off)
    f.write(struct.pack('<IIII', MD_MAGIC, 0, 90, 0) + bytes(16))


def lvm_crc(buf):
    tab = [0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158,
           0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4,
           0xa00ae278, 0xbdbdf21c]
    crc = 0xf597a6cf
    for x in buf:
        crc ^= x
        crc = (crc >> 4) ^ tab[crc & 0xf]
        crc = (crc >> 4) ^ tab[crc & 0xf]
    return crc


def lvm(f):
    lab = bytearray(512)
    lab[0:8] = b'LABELONE'
    struct.pack_into('<Q', lab, 8, 1)  # sector_xl: this label's sector
    struct.pack_into('<I', lab, 20, 32)  # offset_xl: the pv_header
    lab[24:32] = b'LVM2 001'
    lab[32:64] = b'A' * 32  # pv_uuid
    struct.pack_into('<I', lab, 16, lvm_crc(lab[20:512]))
    f.seek(512)
    f.write(lab)


def main():
    kind, path = sys.argv[1], sys.argv[2]
    size = int(sys.argv[3] if len(sys.argv) > 3 else 8) << 20
    with open(path, 'wb') as f:
        f.truncate(size)
        if kind == 'md0.90':
            md0(f, (size & ~0xffff) - 0x10000)
        elif kind == 'md1.0':
            md1(f, (size & ~0xfff) - 0x2000)
        elif kind == 'md1.1':
            md1(f, 0)
        elif kind == 'md1.2':
            md1(f, 0x1000)
        elif kind == 'lvm':
            lvm(f)
        else:
            sys.exit('mklabels.py: unknown kind ' + kind)


main()
