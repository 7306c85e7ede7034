# SPDX-License-Identifier: GPL-2.0-only
# UB/URMA stack: kernel modules (through Kbuild) and userspace (through CMake).
#
#   make                 modules against KDIR, and liburma/tools/tests in build/
#   make install         modules, library, headers and tools (DESTDIR, PREFIX)
#   make check           every test, in a QEMU guest with a debug test kernel
#   make check-long      make check with long fuzzer and fault-injection runs
#   make demo            the stack on Debian's stock kernel in a QEMU guest
#   make bench           URMA vs soft-RoCE (rxe) and TCP in that guest: one table
#   make bench-local     udma's local WRITE bandwidth/latency vs memcpy in that guest
#   make checkpatch      kernel style of every kernel source
#   make sparse          build the modules with sparse (C=1)
#   make clean

KDIR ?= $(shell scripts/kdir.sh)
PREFIX ?= /usr/local
BUILD ?= build
CMAKE_BUILD_TYPE ?= RelWithDebInfo

.PHONY: all modules userspace install modules_install userspace_install \
	check check-long demo bench bench-local checkpatch sparse clean deps help

all: modules userspace

deps:
	@scripts/deps.sh

modules: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

sparse: deps
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 C=2 modules

$(BUILD)/CMakeCache.txt: CMakeLists.txt | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE) \
		-DCMAKE_INSTALL_PREFIX=$(PREFIX)

userspace: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$$(nproc)

install: modules_install userspace_install

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_PATH=$(DESTDIR) modules_install
	depmod $(if $(DESTDIR),-b $(DESTDIR)) -a $$(scripts/kernel-release.sh $(KDIR))

userspace_install: userspace
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)

check:
	@scripts/check.sh

# The same harness; the fuzzers and fault injection run their long counts
# (tests/guest/cases/fuzz-*.sh, fault-injection.sh).
check-long:
	@UB_CHECK_LONG=1 scripts/check.sh

demo:
	@scripts/demo.sh

bench:
	@scripts/bench.sh

# BENCH_ARGS: passed to urma_local_bench (see its --help).
bench-local:
	@scripts/bench-local.sh -- $(BENCH_ARGS)

checkpatch:
	@scripts/checkpatch

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)

help:
	@sed -n '2,15s/^# \{0,1\}//p' Makefile
