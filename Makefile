# SPDX-License-Identifier: GPL-2.0
#
# utiltrack - pluggable CPU utilization tracking.
#
#   make                  build utiltrack.ko and vcpufreq.ko against KDIR
#   make KDIR=...         ... against another kernel build tree
#   make modules_install  install them into KDIR's /lib/modules
#   make dkms-install     register with DKMS: built and installed for every
#                         kernel with headers, and each one installed later
#   make dkms-uninstall   remove it from DKMS again
#   make clean
#   make deps             install every Debian package the project uses
#   make demo             boot a VM and show the platform at work
#   make check            all tests (host unit tests, VM tests on 5.10, 6.1
#                         and 6.12, KUnit and the VM tests on the KASAN +
#                         lockdep test kernel)
#   make kunit            the KUnit suites on the test kernel (built once)
#   make check-debug      the VM suites on that kernel (a stage of check)
#   make stress           reliability: churn, hotplug, fork storm, fuzzing at
#                         full counts on 6.1, 6.12 and the debug kernel;
#                         STRESS_KERNELS="debug" STRESS_ONLY="reload switch"
#                         to run a part (the debug kernel takes hours)
#   make bench            benchmark: the seed threads' experiments (messaging,
#                         latency, rt-mix, capacity, overhead) with intervals and a
#                         report; BENCH_ARGS="--reps N SCENARIO..." to choose
#   make bench-overhead   benchmark: what utiltrack costs (not a test)
#   make bench-emulation  benchmark: how exact vcpufreq's throughput emulation is

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))

# KDIR: the running kernel's build tree when it has one, otherwise the
# newest installed /lib/modules/*/build (a CI box runs some other kernel).
ifeq ($(origin KDIR),undefined)
KDIR := $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	  $(shell ls -d /lib/modules/*/build 2>/dev/null | sort -V | tail -n 1))
KDIR_WHY := default
else
KDIR_WHY := given
endif

UT_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/utiltrack
export UT_CACHE

.PHONY: all modules modules_install clean deps demo check check-host \
	check-build check-vm kmods help bench bench-overhead \
	bench-emulation kunit \
	test-kernel check-debug stress dkms-install dkms-uninstall

all: modules

modules:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "utiltrack: no kernel build tree (KDIR='$(KDIR)'); run 'make deps' or pass KDIR=" >&2; exit 1; }
	@echo "utiltrack: building against $(KDIR) ($(KDIR_WHY))"
	$(MAKE) -C $(KDIR) M=$(TOP) modules

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(TOP) modules_install

clean:
	@if [ -n "$(KDIR)" ] && [ -d "$(KDIR)" ]; then \
		$(MAKE) -C $(KDIR) M=$(TOP) clean; fi
	$(MAKE) -C tools/tests/host clean

deps:
	@$(TOP)/tools/deps.sh

dkms-install:
	@$(TOP)/tools/dkms/run install

dkms-uninstall:
	@$(TOP)/tools/dkms/run uninstall

# kmods KVER=<version> OUT=<dir> [KMODS_KDIR=<tree>]: build the modules
# for one kernel (installed, or the build tree given) in a per-kernel copy
# under $(UT_CACHE), so several kernels never share object files, and copy
# the .ko files to OUT. Used by tools/vm/run.
kmods:
	@$(TOP)/tools/build-kmods "$(KVER)" "$(OUT)" $(KMODS_KDIR)

check-host:
	@$(MAKE) -s -C tools/tests/host check

check-build:
	@$(TOP)/tools/tests/build/run

check-vm:
	@$(TOP)/tools/tests/vm/run-all

check: deps
	@$(TOP)/tools/check

kunit: deps
	@$(TOP)/tools/tests/kunit/run

check-debug: deps
	@$(TOP)/tools/tests/vm/run-all debug

# the stress suite at the issue's counts, 4 vCPUs, one boot per kernel.
# The timeout only catches a hung guest: the debug kernel's full run
# (stress and every fault of faults.sh) takes hours under TCG.
STRESS_KERNELS ?= 6.1 6.12 debug
stress: deps
	@UT_VM_SUITES=stress UT_VM_SMP=4 STRESS_FULL=1 UT_VM_TIMEOUT=18000 \
		UT_LOG_DIR=$(TOP)/.log/stress $(TOP)/tools/tests/vm/run-all $(STRESS_KERNELS)

# the KUnit + KASAN + lockdep kernel (cached under $(UT_CACHE)/testkernel)
test-kernel: deps
	@$(TOP)/tools/build-test-kernel

demo: deps
	@$(TOP)/tools/demo

bench-overhead: deps
	@$(TOP)/tools/bench/overhead

bench: deps
	@$(TOP)/tools/bench/run $(BENCH_ARGS)

bench-emulation: deps
	@$(TOP)/tools/bench/emulation

help:
	@sed -n '3,25p' $(TOP)/Makefile
