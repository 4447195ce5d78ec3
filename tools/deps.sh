#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install every Debian package utiltrack needs; idempotent.
#
# Only missing packages are installed, so a warm machine pays one
# dpkg-query. Kernels: the stock 6.1 (bookworm) and 6.12 (bookworm
# security) images with their headers, for the VM harness and builds.
set -euo pipefail

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

missing=()
for p in "${pkgs[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run 'make deps' as root" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
