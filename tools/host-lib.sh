# SPDX-License-Identifier: GPL-2.0
#
# host-lib.sh - what the host-side scripts share; sourced, defines names
# only. $top must be the repository's top directory.
#
# UT_CACHE: where everything expensive and keyed on its inputs is kept
# outside the repository (test kernel, module builds, base initramfs,
# checkpatch). The Makefile exports the same default.
UT_CACHE=${UT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/utiltrack}

# UT_GUEST_CMDLINE: the guest kernel's command line before --append.
# tsc=unstable: QEMU TCG offers no invariant TSC, so the guest kernel
# watches cpufreq transitions and, on the first one (vcpufreq's, in every
# boot), marks the TSC unstable: timekeeping moves to the HPET and the
# sched_clock_stable static key is live-patched under the running
# scheduler, which multi-threaded TCG can turn into an oops on a stale
# int3 (docs/safety.md, "Static keys under QEMU TCG"). Declaring the TSC
# unstable at boot gives the state vcpufreq would have led to, with no
# patch at run time.
UT_GUEST_CMDLINE="console=ttyS0 panic=-1 quiet log_buf_len=8M tsc=unstable"

# ut_kernels: the kernels with a build tree (headers) installed, oldest
# first
ut_kernels() {
	local d

	for d in /lib/modules/*/build; do
		[ -d "$d" ] && basename "$(dirname "$d")"
	done | sort -V
}

# ut_copy_sources DIR: a pristine copy of what kbuild builds (Kbuild,
# include/, module/) in DIR: in a git checkout the tracked and the new,
# unignored files, so no build output comes along; else everything.
# safe.directory: under sudo the checkout belongs to another user.
ut_copy_sources() {
	local files

	rm -rf "$1"
	mkdir -p "$1"
	if files=$(git -c safe.directory="$top" -C "$top" ls-files --cached \
		--others --exclude-standard Kbuild include module 2>/dev/null) &&
		[ -n "$files" ]; then
		(cd "$top" && echo "$files" | tar -cf - -T -) | tar -xf - -C "$1"
	else
		cp -a "$top/Kbuild" "$top/include" "$top/module" "$1/"
	fi
}

# ut_calibration_file KERNEL: where the emulation's overhead_us for
# KERNEL (as given to tools/vm/run --kernel, or arm64:BOARD) is cached: calibrated once
# per host and kernel (~2 min in a boot) and keyed by all it depends on:
# the kernel asked for and those installed, QEMU, the host CPU, the
# guest's command line and the
# sources of the emulation and of its calibration. The demo and the
# benchmarks share it.
ut_calibration_file() {
	local key

	key=$({
		echo "$1"
		ls /boot/vmlinuz-* 2>/dev/null
		qemu-system-x86_64 --version 2>/dev/null | head -n 1
		# an arm64 board (bench/run --board) runs on the other QEMU
		case $1 in arm64:*) qemu-system-aarch64 --version 2>/dev/null | head -n 1 ;; esac
		grep -m 1 '^model name' /proc/cpuinfo
		nproc
		echo "$UT_GUEST_CMDLINE"
		cat "$top/module/vcpufreq/vcpufreq.c" "$top/module/core/emu.c" \
		    "$top/tools/vm/guest-lib.sh"
	} | sha256sum | cut -c1-16)
	echo "$UT_CACHE/calibration/overhead_us-$key"
}

# ut_apt_kernel_image METAPACKAGE VERSION: the image package that apt's
# newest METAPACKAGE of kernel VERSION (5.10, 6.1) depends on, e.g.
# linux-image-5.10.0-46-amd64: its ABI number moves with security updates
ut_apt_kernel_image() {
	apt-cache show "$1" 2>/dev/null | awk -v want="^Version: ${2//./\\.}\\." '
		$0 ~ want { v = $2; next }
		/^Version:/ { v = "" }
		v != "" && /^Depends:/ { print v, $2 }' |
		sort -V | tail -n 1 | cut -d' ' -f2
}
