# shortstroke - build, test, install.
#
#   make            program in build/shortstroke, libraries beside it
#   make demo       install build deps if missing, build, open the TUI on the demo rig
#   make check      install test deps if missing, the formatter check, unit tests
#                   (ASan+UBSan), CLI tests, fuzz smoke runs, libraidplan's ABI, the Debian
#                   packages, real-kernel suite in QEMU; every suite runs, and it ends with each suite's
#                   "N passed, N failed" line and the total
#   make check-vm   the real-kernel suite alone
#   make check-layers  the include rules of docs/architecture.md
#   make check-symbols nothing extern without a user in another file (tests/check-symbols.sh)
#   make check-methods no limit method named by its id above src/ops/capacity/
#   make format     clang-format every C file of src, include and tests (.clang-format)
#   make check-format  fail listing the files make format would change (part of check)
#   make check-abi  libraidplan's ABI against tests/abi/ (abidiff, part of check)
#   make abi-baseline  record the built libraidplan's ABI as the new baseline
#   V=1             print the full commands
#   make bench      benchmarks against fio/zcav (not part of check)
#   make install    PREFIX=/usr/local DESTDIR= (BINDIR SBINDIR LIBDIR MANDIR ...: see there)
#   make uninstall  the same variables: removes what make install installed
#   make deb        the Debian packages, in build/debian (contrib/debian/README.md)
#   make check-deb  build them, lintian, install into a throwaway root, run, remove

BUILD   ?= build
SAN     ?= 0
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 4

JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# One short line per file built ("CC src/ops/capacity.c"); V=1 prints the full commands.
V ?= 0
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = printf '  %-3s %s\n' $(1) $(2);
endif

# libraidplan's version and soname come from its header (RP_VERSION_STRING, RP_API_VERSION)
RP_VERSION := $(shell sed -n 's/^\#define RP_VERSION_STRING "\(.*\)"/\1/p' include/raidplan.h)
RP_MAJOR := $(shell sed -n 's/^\#define RP_API_VERSION \([0-9]*\)$$/\1/p' include/raidplan.h)

PKGS := libatasmart json-c libudev blkid mount fdisk ncursesw liburing libnvme

WARN := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wstrict-prototypes \
	-Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
ifneq ($(findstring clang,$(CC)),)
WARN += -Wno-unknown-warning-option
endif
# HAVE_BYTESWAP_H: sg3_utils' <scsi/sg_unaligned.h> then reads and writes big- and
# little-endian fields with memcpy and bswap; its generic form shifts a byte left by
# 24 as an int, which overflows (UBSan stops the unit tests there).
CFLAGS_BASE := -std=gnu11 -g -D_GNU_SOURCE -DHAVE_BYTESWAP_H -Iinclude -Isrc -MMD -MP $(WARN)
ifeq ($(SAN),1)
CFLAGS_OPT := -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
LDFLAGS_SAN := -fsanitize=address,undefined
else ifeq ($(SAN),fuzz)
CFLAGS_OPT := -O1 -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS_SAN := -fsanitize=address,undefined
else
CFLAGS_OPT := -O2
LDFLAGS_SAN :=
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS ?=
LDFLAGS ?=
ALL_CFLAGS = $(CFLAGS_BASE) $(CFLAGS_OPT) $(PKG_CFLAGS) $(CFLAGS)
LIBS = $(PKG_LIBS) -lsgutils2 -lpthread -lm

CORE_SRC := $(sort $(wildcard src/util/*.c src/transport/*.c src/drive/*.c \
	src/sim/*.c src/ops/*.c src/ops/capacity/*.c src/io/*.c src/sys/*.c))
RP_SRC   := $(sort $(wildcard src/raidplan/*.c))
APP_SRC  := $(sort $(wildcard src/front/*.c src/cli/*.c src/tui/*.c))
SIMD_SRC := $(sort $(wildcard src/simd/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
RP_OBJ   := $(RP_SRC:%.c=$(BUILD)/obj/%.o)
APP_OBJ  := $(APP_SRC:%.c=$(BUILD)/obj/%.o)
MAIN_OBJ := $(BUILD)/obj/src/main.o
SIMD_OBJ := $(SIMD_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

CORE_LIB := $(BUILD)/libshortstroke.a
APP_LIB  := $(BUILD)/libssfront.a
RP_A     := $(BUILD)/libraidplan.a
RP_SO    := $(BUILD)/libraidplan.so.$(RP_VERSION)
RP_MAP   := src/raidplan/raidplan.map
PROG     := $(BUILD)/shortstroke
SIMD     := $(if $(SIMD_SRC),$(BUILD)/shortstroke-simd)

.PHONY: all deps deps-check demo unit check check-unit check-cli check-fuzz \
	check-vm check-layers check-symbols check-methods check-format format check-abi abi-baseline raidplan fuzz bench \
	install install-man install-contrib uninstall deb check-deb clean tests
.DEFAULT_GOAL := all

all: $(PROG) $(SIMD) $(RP_SO) $(RP_A) $(BUILD)/raidplan.pc

deps:
	@tests/deps.sh build
deps-check:
	@tests/deps.sh check

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# libraidplan: position independent, only the header's symbols exported
$(BUILD)/obj/src/raidplan/%.o: src/raidplan/%.c
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -fPIC -fvisibility=hidden -c -o $@ $<

$(CORE_LIB): $(CORE_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(APP_LIB): $(APP_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(RP_A): $(RP_OBJ)
	@rm -f $@
	$(Q)$(call say,AR,$@)ar rcs $@ $^

$(RP_SO): $(RP_OBJ) $(RP_MAP)
	$(Q)$(call say,LD,$@)$(CC) -shared -Wl,-soname,libraidplan.so.$(RP_MAJOR) \
		-Wl,--version-script=$(RP_MAP) $(LDFLAGS_SAN) $(LDFLAGS) -o $@ $(RP_OBJ) -lm
	$(Q)ln -sf libraidplan.so.$(RP_VERSION) $(BUILD)/libraidplan.so.$(RP_MAJOR)
	$(Q)ln -sf libraidplan.so.$(RP_MAJOR) $(BUILD)/libraidplan.so

raidplan: $(RP_SO) $(RP_A) $(BUILD)/raidplan.pc

# (make install writes it again, for the PREFIX it installs to)
# (libdir and includedir relative to ${prefix} when they are under it)
pc_rel = $(patsubst $(PREFIX)/%,$${prefix}/%,$(1))
RP_PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(call pc_rel,$(LIBDIR))|g' \
	-e 's|@INCLUDEDIR@|$(call pc_rel,$(INCLUDEDIR))|g' -e 's|@VERSION@|$(RP_VERSION)|g' src/raidplan/raidplan.pc.in
$(BUILD)/raidplan.pc: src/raidplan/raidplan.pc.in include/raidplan.h
	$(Q)$(call say,GEN,$@)$(RP_PC_SED) > $@

$(PROG): $(MAIN_OBJ) $(APP_LIB) $(CORE_LIB) $(RP_A)
	$(Q)$(call say,LD,$@)$(CC) $(LDFLAGS_SAN) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(APP_LIB) \
		$(CORE_LIB) $(RP_A) $(LIBS)

# The TCMU handler: serves simulated drives to the kernel as SCSI disks.
$(BUILD)/shortstroke-simd: $(SIMD_OBJ) $(CORE_LIB)
	$(Q)$(call say,LD,$@)$(CC) $(LDFLAGS_SAN) $(LDFLAGS) -o $@ $(SIMD_OBJ) $(CORE_LIB) $(LIBS)

# Unit tests link the front-end objects too (table renderer, TUI model).
SIMD_LIB_OBJ := $(filter-out %/simd_main.o,$(SIMD_OBJ))
$(BUILD)/tests/%: tests/unit/%.c $(APP_LIB) $(SIMD_LIB_OBJ) $(CORE_LIB) $(RP_A)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) $(LDFLAGS_SAN) $(LDFLAGS) -o $@ $< $(APP_LIB) \
		$(SIMD_LIB_OBJ) $(CORE_LIB) $(RP_A) $(LIBS) -lcmocka

$(BUILD)/fuzz/%: tests/fuzz/%.c $(CORE_LIB) $(RP_A)
	@mkdir -p $(dir $@)
	$(Q)$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< \
		$(CORE_LIB) $(RP_A) $(LIBS)

tests: $(UNIT_BIN)

# Unit tests run under AddressSanitizer and UBSan, in their own build tree.
check-unit: deps-check
	@$(MAKE) --no-print-directory -j$(JOBS) SAN=1 BUILD=build/san build/san/shortstroke tests
	@tests/run-unit.sh build/san/tests

check-cli: deps-check
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@tests/cli/run.sh $(PROG)

fuzz:
	@$(MAKE) --no-print-directory -j$(JOBS) CC=clang SAN=fuzz BUILD=build/fuzz fuzz-bins
fuzz-bins: $(FUZZ_BIN)

check-fuzz: deps-check fuzz
	@tests/fuzz/run.sh build/fuzz/fuzz/fuzz $(FUZZ_SECONDS)

# the include rules of docs/architecture.md (also run by the CLI suite, tests/cli/t_docs.sh)
check-layers:
	@tests/check-layers.sh

# every extern function called from another object or the tests (also run by the CLI suite,
# tests/cli/t_symbols.sh)
check-symbols: all
	@tests/check-symbols.sh $(BUILD)/obj

# no limit method named by its id above the capacity engine (also run by tests/cli/t_docs.sh)
check-methods:
	@tests/check-methods.sh

# the code style of .clang-format (docs/style.md); make format rewrites what differs
check-format: deps-check
	@tests/check-format.sh

format:
	@tests/check-format.sh --fix

# libraidplan's ABI against the baseline of its soname, tests/abi/libraidplan.so.N.abi
# (docs/planning-model.md, "The library's ABI"); the suite installs into a DESTDIR too
check-abi: deps-check
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@tests/abi/run.sh $(BUILD)

abi-baseline: raidplan
	@tests/deps.sh check
	@tests/abi/run.sh --baseline $(BUILD)

check-vm:
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@tests/deps.sh vm
	@tests/vm/run.sh $(PROG)

# Every suite runs even when one before it failed; each one's output is kept in
# build/check/SUITE.log, and the closing lines are summed up at the end. Three
# lanes run at once once the program is built: the guest suite (one QEMU TCG
# thread, the longest; it keeps its priority), the CLI suite (printed as it
# runs; mostly waiting on the simulator's virtual time and on tmux), and the
# others one after the other (format, unit, fuzz, abi, deb: builds and CPU), the
# last two niced so that the guest's thread keeps a core. A lane's log is
# printed when it ends.
CHECK_SUITES := format unit cli fuzz abi deb vm
CHECK_LANE := format unit fuzz abi deb
check: deps-check
	@mkdir -p build/check && rm -f build/check/*.log build/check/*.rc
	@$(MAKE) --no-print-directory -j$(JOBS) all
	@{ $(MAKE) --no-print-directory check-vm > build/check/vm.log 2>&1; \
		echo $$? > build/check/vm.rc; } & \
	{ for s in $(CHECK_LANE); do \
		nice -n 5 $(MAKE) --no-print-directory check-$$s > build/check/$$s.log 2>&1; \
		echo $$? > build/check/$$s.rc; \
	done; } & \
	{ nice -n 5 $(MAKE) --no-print-directory check-cli 2>&1; echo $$? > build/check/cli.rc; } | \
		tee build/check/cli.log; \
	echo "== waiting for the other suites (build/check/*.log)"; wait; \
	for s in $(CHECK_LANE) vm; do echo "== $$s"; cat build/check/$$s.log; done
	@tests/check-summary.sh build/check $(CHECK_SUITES)

demo: deps all
	$(PROG) --demo tui

bench: all
	@tests/deps.sh check
	@tests/bench/run.sh $(PROG)

# a simulated SSD's random writes at 0, 7, 28, 50 % spare: simulated and planned (docs/flash.md)
bench-flash: all
	@tests/bench/flash.sh $(PROG)

# Where make install puts things (DESTDIR in front of each, for packaging).
# LIBDIR is Debian's multiarch directory (lib/x86_64-linux-gnu) where the
# compiler names one, which ld.so and pkg-config search under /usr and /usr/local.
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BINDIR  ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
LIBDIR  ?= $(PREFIX)/lib$(if $(MULTIARCH),/$(MULTIARCH))
INCLUDEDIR ?= $(PREFIX)/include
MANDIR  ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
CONTRIBDIR ?= $(PREFIX)/share/shortstroke
# the Ansible collection shortstroke.disks, where ansible looks (/usr/share/ansible/collections)
COLLECTIONDIR ?= $(PREFIX)/share/ansible/collections/ansible_collections/shortstroke/disks

# The library's man pages (docs/man/*.3): raidplan(3), and one page per
# group of functions whose NAME line lists them; each function gets a link
# page (.so) to its group's page, so that man rp_solve finds it.
MAN3 := $(notdir $(wildcard docs/man/*.3))
man3_names = sed -n '/^\.SH NAME/{n;s/ \\-.*//;s/\\//g;s/,/ /g;p;q;}' docs/man/$(1)
MAN3_LINKS := $(foreach p,$(MAN3),$(foreach f,$(shell $(call man3_names,$(p))),\
	$(if $(filter $(f).3,$(MAN3)),,$(f).3:$(p))))

# shortstroke is run by users too (--demo, plan): BINDIR; the TCMU daemon,
# root's alone, SBINDIR. Their pages are in section 8.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)
	install -m 755 $(PROG) $(DESTDIR)$(BINDIR)/shortstroke
	$(if $(SIMD),install -m 755 $(SIMD) $(DESTDIR)$(SBINDIR)/shortstroke-simd)
	install -m 644 $(RP_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libraidplan.so.$(RP_VERSION) $(DESTDIR)$(LIBDIR)/libraidplan.so.$(RP_MAJOR)
	ln -sf libraidplan.so.$(RP_MAJOR) $(DESTDIR)$(LIBDIR)/libraidplan.so
	install -m 644 $(RP_A) $(DESTDIR)$(LIBDIR)/
	install -m 644 include/raidplan.h $(DESTDIR)$(INCLUDEDIR)/
	$(RP_PC_SED) > $(DESTDIR)$(LIBDIR)/pkgconfig/raidplan.pc
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/raidplan.pc
	@$(MAKE) --no-print-directory install-man install-contrib

# the man pages of docs/man/: the programs' (8), the library's (3: one page
# per group of functions, and a link page per function)
install-man:
	install -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man3
	install -m 644 docs/man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 docs/man/*.3 $(DESTDIR)$(MANDIR)/man3/
	@for l in $(MAN3_LINKS); do \
		echo ".so man3/$${l#*:}" > $(DESTDIR)$(MANDIR)/man3/$${l%%:*} || exit 1; done

# contrib/: the boot-time units (installed, not enabled), the udev rule (kept
# aside until linked into /etc/udev/rules.d), shell completion, the Ansible
# collection, the configuration file (kept when there is one).
install-contrib:
	install -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(CONTRIBDIR)/udev \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(COLLECTIONDIR) \
		$(DESTDIR)$(SYSCONFDIR)/shortstroke
	for u in contrib/systemd/*.service; do \
		sed 's|@BINDIR@|$(BINDIR)|g' "$$u" > $(DESTDIR)$(SYSTEMDUNITDIR)/$${u##*/} && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/$${u##*/} || exit 1; done
	install -m 644 contrib/udev/*.rules $(DESTDIR)$(CONTRIBDIR)/udev/
	install -m 644 contrib/completion/shortstroke.bash $(DESTDIR)$(BASHCOMPDIR)/shortstroke
	install -m 644 contrib/completion/_shortstroke $(DESTDIR)$(ZSHCOMPDIR)/_shortstroke
	cp -R contrib/ansible/. $(DESTDIR)$(COLLECTIONDIR)/
	rm -rf $(DESTDIR)$(COLLECTIONDIR)/tests
	install -m 644 contrib/README.md contrib/shortstroke.conf $(DESTDIR)$(CONTRIBDIR)/
	[ -e $(DESTDIR)$(SYSCONFDIR)/shortstroke/shortstroke.conf ] || \
		install -m 644 contrib/shortstroke.conf $(DESTDIR)$(SYSCONFDIR)/shortstroke/

# Removes what make install put there (with the same PREFIX, DESTDIR and
# directories); under a DESTDIR also the directories left empty (on the
# system itself only shortstroke's own: /usr/local/bin stays); the
# configuration file in SYSCONFDIR stays, as a package's would.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/shortstroke $(DESTDIR)$(SBINDIR)/shortstroke-simd \
		$(DESTDIR)$(LIBDIR)/libraidplan.so.$(RP_VERSION) \
		$(DESTDIR)$(LIBDIR)/libraidplan.so.$(RP_MAJOR) $(DESTDIR)$(LIBDIR)/libraidplan.so \
		$(DESTDIR)$(LIBDIR)/libraidplan.a $(DESTDIR)$(LIBDIR)/pkgconfig/raidplan.pc \
		$(DESTDIR)$(INCLUDEDIR)/raidplan.h \
		$(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(wildcard docs/man/*.8))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man3/,$(MAN3) $(foreach l,$(MAN3_LINKS),$(firstword $(subst :, ,$(l))))) \
		$(addprefix $(DESTDIR)$(SYSTEMDUNITDIR)/,$(notdir $(wildcard contrib/systemd/*.service))) \
		$(DESTDIR)$(BASHCOMPDIR)/shortstroke $(DESTDIR)$(ZSHCOMPDIR)/_shortstroke
	rm -rf $(DESTDIR)$(CONTRIBDIR) $(DESTDIR)$(COLLECTIONDIR)
	$(if $(DESTDIR),-for d in $(LIBDIR)/pkgconfig $(LIBDIR) $(BINDIR) $(SBINDIR) $(INCLUDEDIR) \
		$(MANDIR)/man8 $(MANDIR)/man3 $(MANDIR) $(SYSTEMDUNITDIR) $(BASHCOMPDIR) \
		$(ZSHCOMPDIR) $(dir $(COLLECTIONDIR)); do \
		rmdir -p --ignore-fail-on-non-empty $(DESTDIR)$$d 2>/dev/null; done; true)
	-rmdir $(DESTDIR)$(dir $(COLLECTIONDIR)) 2>/dev/null; true

# The Debian packages (contrib/debian/README.md): a copy of the source whose
# contrib/debian is its debian/, built with dpkg-buildpackage in
# build/debian/; the .debs land there. make check-deb builds them, runs
# lintian, installs them into a throwaway root, runs the program from there
# and removes them (tests/deb/run.sh).
DEB_VERSION = $(shell dpkg-parsechangelog -l contrib/debian/changelog -S Version 2>/dev/null)
DEB_TREE = build/debian/shortstroke-$(DEB_VERSION)
deb:
	@test -n "$(DEB_VERSION)" || { echo "deb: dpkg-parsechangelog is missing (dpkg-dev)"; exit 1; }
	rm -rf build/debian && mkdir -p $(DEB_TREE)
	tar -cf - --exclude=./build --exclude=./.git . | tar -xf - -C $(DEB_TREE)
	cp -R contrib/debian $(DEB_TREE)/debian
	cd $(DEB_TREE) && dpkg-buildpackage -us -uc -b -j$(JOBS) > ../build.log 2>&1 || \
		{ tail -n 40 ../build.log; exit 1; }
	@ls build/debian/*.deb

check-deb: deps-check
	@tests/deb/run.sh build/debian

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj $(BUILD)/tests $(BUILD)/fuzz -name '*.d' 2>/dev/null)
