#!/bin/sh
# Install the Debian packages shortstroke needs to build and test.
#   tests/deps.sh build   - compilers and -dev libraries
#   tests/deps.sh check   - build deps plus test tools (tmux, fio, clang for fuzzing,
#                           abigail-tools for the ABI check, skdump for the SMART blob tests,
#                           clang-format for make check-format, strace for what the
#                           journal makes durable, ansible-lint and what
#                           ansible-test sanity runs for the collection, dpkg-buildpackage,
#                           debhelper and lintian for the Debian package)
#   tests/deps.sh vm      - packages for the real-kernel suite (QEMU, kernel, busybox, peers)
# As root, missing packages are installed with apt-get; otherwise the one
# command needed is printed and the script fails.
set -eu

build_pkgs="gcc make pkg-config libsgutils2-dev libatasmart-dev libjson-c-dev \
libudev-dev libblkid-dev libmount-dev libfdisk-dev libncurses-dev liburing-dev libnvme-dev"
check_pkgs="libcmocka-dev tmux clang fio python3 e2fsprogs groff-base jq bash-completion zsh \
ansible-core abigail-tools libatasmart-bin clang-format strace \
ansible-lint pylint pycodestyle yamllint shellcheck python3-voluptuous python3-venv \
dpkg-dev debhelper fakeroot lintian"
vm_pkgs="qemu-system-x86 linux-image-amd64 busybox-static cpio mdadm sg3-utils \
smartmontools hdparm e2fsprogs kmod"

want=$build_pkgs
case "${1:-build}" in
build) ;;
check) want="$build_pkgs $check_pkgs" ;;
vm) want="$vm_pkgs" ;;
*) echo "usage: $0 build|check|vm" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "shortstroke: missing packages; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends $missing >/dev/null; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
