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

# Debian 11's suites, pinned low so that nothing but the packages named
# below ever comes from them (bookworm's versions are newer anyway).
bullseye_sources=/etc/apt/sources.list.d/utiltrack-bullseye.sources
bullseye_pin=/etc/apt/preferences.d/utiltrack-bullseye

pkgs=(
	# module builds and static checks
	gcc make libc6-dev bc kmod perl sparse xz-utils
	# the DKMS package (make dkms-install; checked by the build stage)
	dkms
	# the 32-bit build of the core (tools/tests/host check-32bit)
	gcc-multilib
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
)

# is_installed PKG...: every PKG (dpkg-query patterns allowed) installed
is_installed() {
	local status

	status=$(dpkg-query -W -f='${db:Status-Status}\n' "$@" 2>/dev/null) ||
		return 1
	! grep -qv '^installed$' <<<"$status"
}

# add_bullseye: the bullseye suites and their pin; true when either was new
add_bullseye() {
	local new=1

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
		new=0
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
		new=0
	fi
	return $new
}

# kernel_510: the newest bullseye 5.10 image's package name, e.g.
# linux-image-5.10.0-46-amd64 (its ABI number moves with security updates)
kernel_510() {
	apt-cache show linux-image-amd64 2>/dev/null | awk '
		/^Version: 5\.10\./ { v = $2; next }
		/^Version:/ { v = "" }
		v != "" && /^Depends:/ { print v, $2 }' |
		sort -V | tail -n 1 | cut -d' ' -f2
}

missing=()
for p in "${pkgs[@]}"; do
	is_installed "$p" || missing+=("$p")
done
is_installed 'linux-image-5.10.*-amd64' 'linux-headers-5.10.*-amd64' ||
	missing+=(5.10)

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run 'make deps' as root" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if [ "${missing[-1]}" = 5.10 ]; then
	unset 'missing[-1]'
	add_bullseye || true
	apt-get update -qq
	k=$(kernel_510)
	[ -n "$k" ] || { echo "deps: no 5.10 kernel in bullseye's suites" >&2; exit 1; }
	missing+=("$k" "${k/image/headers}")
else
	apt-get update -qq
fi

echo "deps: installing ${missing[*]}"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
