#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install every Debian package utiltrack needs; idempotent.
#
# Only missing packages are installed, so a warm machine pays one
# dpkg-query. Kernels: the stock 6.1 (bookworm) and 6.12 (bookworm
# security) images with their headers, and Debian 11's 5.10 (bullseye
# security, with the gcc-10 its headers are built with), for the VM
# harness and builds.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/host-lib.sh"

# Debian 11's suites, pinned low so that nothing comes from them but the
# 5.10 kernel and what only they have of its dependencies (gcc-10, the
# 5.10 kbuild); bookworm's versions of the rest are newer anyway.
# Bullseye is past its LTS: when its suites cannot be had (moved to the
# archive, Release expired), 5.10 is skipped with a warning and the VM
# stages run on the kernels that are installed.
bullseye_sources=/etc/apt/sources.list.d/utiltrack-bullseye.sources
bullseye_pin=/etc/apt/preferences.d/utiltrack-bullseye

pkgs=(
	# module builds and static checks
	gcc make libc6-dev bc kmod perl sparse xz-utils
	# the DKMS package (make dkms-install; checked by the build stage)
	dkms
	# the 32-bit build of the core (tools/tests/host check-32bit): the
	# i686 cross compiler, since gcc-multilib conflicts with the arm64 one
	gcc-12-i686-linux-gnu libc6-dev-i386-cross
	linux-image-amd64 linux-headers-amd64
	linux-image-6.12-amd64 linux-headers-6.12-amd64
	# the KUnit/KASAN/lockdep test kernel, built from Debian's source
	linux-source-6.1 flex bison libssl-dev libelf-dev
	# the VM harness
	qemu-system-x86 busybox-static cpio util-linux
	# workloads and tracing used by tests, the demo and benchmarks
	rt-tests sysbench rt-app stress-ng trace-cmd gnuplot-nox
	# perf bench sched messaging/pipe (the overhead benchmark)
	linux-perf
	# dtc for the arm64 boards in dts/ (tools/tests/host check-dts)
	device-tree-compiler
	# arm64 guests (tools/vm/run --arch arm64): QEMU, the cross compiler
	# for the modules; the guest's own files come from Debian's arm64
	# packages, unpacked by tools/vm/sysroot-arm64 when first needed
	qemu-system-arm gcc-12-aarch64-linux-gnu
)

# is_installed PKG: PKG installed; a dpkg-query pattern: one of its
# matches installed (an old ABI removed but not purged does not count)
is_installed() {
	dpkg-query -W -f='${db:Status-Status}\n' "$1" 2>/dev/null |
		grep -qx installed
}

# add_bullseye: the bullseye suites and their pin
add_bullseye() {
	if [ ! -e "$bullseye_sources" ]; then
		cat >"$bullseye_sources" <<-EOF
		# utiltrack (tools/deps.sh): Debian 11's 5.10 kernel and gcc-10
		Types: deb
		URIs: http://deb.debian.org/debian
		Suites: bullseye
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

		Types: deb
		URIs: http://deb.debian.org/debian-security
		Suites: bullseye-security
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
		EOF
	fi
	if [ ! -e "$bullseye_pin" ]; then
		cat >"$bullseye_pin" <<-EOF
		# utiltrack (tools/deps.sh): take from bullseye only what is asked
		Package: *
		Pin: release n=bullseye-security
		Pin-Priority: 100

		Package: *
		Pin: release n=bullseye
		Pin-Priority: 100
		EOF
	fi
}


missing=()
for p in "${pkgs[@]}"; do
	is_installed "$p" || missing+=("$p")
done
want510=0
is_installed 'linux-image-5.10.*-amd64' &&
	is_installed 'linux-headers-5.10.*-amd64' || want510=1
arm64=0
dpkg --print-foreign-architectures | grep -qx arm64 || arm64=1

if [ ${#missing[@]} -eq 0 ] && [ $want510 = 0 ] && [ $arm64 = 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing: ${missing[*]}$([ $want510 = 0 ] || echo " the 5.10 kernel")$([ $arm64 = 0 ] || echo " dpkg's arm64 architecture"); run 'make deps' as root" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# apt's arm64 lists, for the arm64 guest's packages (sysroot-arm64)
[ $arm64 = 0 ] || dpkg --add-architecture arm64
[ $want510 = 0 ] || add_bullseye
# a suite that fails (bullseye's, see above) must not stop the others
apt-get update -qq || echo "deps: warning: apt-get update reported errors (above)" >&2
if [ $want510 = 1 ]; then
	k=$(ut_apt_kernel_image linux-image-amd64 5.10)
	if [ -n "$k" ]; then
		missing+=("$k" "${k/image/headers}")
	else
		echo "deps: warning: no 5.10 kernel in bullseye's suites: the VM stages skip 5.10" >&2
	fi
fi

[ ${#missing[@]} -gt 0 ] || exit 0
echo "deps: installing ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
