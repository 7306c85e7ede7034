# SPDX-License-Identifier: GPL-2.0-only
# UB/URMA stack: kernel modules (through Kbuild) and userspace (through CMake).
#
#   make                 modules against KDIR, and liburma/tools/tests in build/
#   make install         modules (depmod), liburma, liburma.pc, headers, tools,
#                        man pages, udev rules, modprobe.d sample (DESTDIR, PREFIX)
#   make uninstall       removes what make install installed
#   make dkms            module sources to /usr/src, then dkms add/build/install
#   make check           every test, in a QEMU guest with a debug test kernel
#   make check-long      make check with long fuzzer and fault-injection runs
#   make demo            the stack on Debian's stock kernel in a QEMU guest
#   make bench           URMA vs soft-RoCE (rxe) and TCP in that guest (URMA's local
#                        path), then across two such guests over UBoE
#                        (scripts/bench-pair.sh, MTU 1500 and 9000): two tables
#   make bench-local     udma's local WRITE bandwidth/latency vs memcpy in that guest
#   make bench-compare   bench-local with the modules of REV (default: merge-base
#                        with main) and of the tree in one guest: both rows, ratio
#   make checkpatch      kernel style of every kernel source
#   make sparse          build the modules with sparse (C=1)
#   make clean

KDIR ?= $(shell scripts/kdir.sh)
PREFIX ?= /usr/local
BUILD ?= build
VERSION := $(shell sed -n 's/^project.* VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
# Where the modules are built (make modules: here; a test installs from a
# build of scripts/build-modules.sh) and under which directory of
# /lib/modules/<release> they are installed.
KMOD_BUILD ?= $(CURDIR)
INSTALL_MOD_DIR ?= extra/ub-urma
KRELEASE = $(shell scripts/kernel-release.sh $(KDIR))
DKMS_SRC = $(DESTDIR)/usr/src/ub-urma-$(VERSION)
CMAKE_BUILD_TYPE ?= RelWithDebInfo

.PHONY: all modules userspace install modules_install userspace_install \
	uninstall modules_uninstall userspace_uninstall dkms dkms_remove \
	check check-long demo bench bench-local bench-compare checkpatch sparse clean deps help

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

modules_install: $(if $(filter $(CURDIR),$(KMOD_BUILD)),modules)
	$(MAKE) -C $(KDIR) M=$(abspath $(KMOD_BUILD)) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	depmod $(if $(DESTDIR),-b $(DESTDIR)) -a $(KRELEASE)

userspace_install: userspace
	DESTDIR=$(DESTDIR) cmake --install $(BUILD)
	$(if $(DESTDIR),,ldconfig)

uninstall: modules_uninstall userspace_uninstall

modules_uninstall:
	rm -rf $(DESTDIR)/lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR)
	depmod $(if $(DESTDIR),-b $(DESTDIR)) -a $(KRELEASE)

# cmake --install lists what it installed (without DESTDIR) in the manifest.
userspace_uninstall:
	@[ -f $(BUILD)/install_manifest.txt ] || \
		{ echo "nothing installed from $(BUILD)"; exit 1; }
	sed 's|^|$(DESTDIR)|' $(BUILD)/install_manifest.txt | xargs -rd '\n' rm -fv
	-inc=$(DESTDIR)$$(sed -n 's|/ub/umdk/urma/urma_api.h$$||p' $(BUILD)/install_manifest.txt); \
		rmdir --ignore-fail-on-non-empty $$inc/ub/umdk/urma $$inc/ub/umdk $$inc/ub
	rm -f $(BUILD)/install_manifest.txt
	$(if $(DESTDIR),,ldconfig)

# DKMS: the module sources and dkms.conf under /usr/src/ub-urma-<version>;
# dkms builds and installs them for the running kernel (or KERNELRELEASE)
# and again for every kernel installed later.
dkms:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	rsync -a --include='*/' --include='*.[ch]' --include=Kbuild --exclude='*' \
		Kbuild include ubcore udma uburma ipourma ums ubagg roub $(DKMS_SRC)/
	sed 's/@VERSION@/$(VERSION)/' dist/dkms.conf.in > $(DKMS_SRC)/dkms.conf
	$(if $(DESTDIR),,dkms add ub-urma/$(VERSION) && \
		dkms build ub-urma/$(VERSION) $(if $(KERNELRELEASE),-k $(KERNELRELEASE)) && \
		dkms install ub-urma/$(VERSION) $(if $(KERNELRELEASE),-k $(KERNELRELEASE)))

dkms_remove:
	dkms remove ub-urma/$(VERSION) --all
	rm -rf $(DKMS_SRC)

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
	@scripts/bench-pair.sh

# BENCH_ARGS: passed to urma_local_bench (see its --help).
bench-local:
	@scripts/bench-local.sh -- $(BENCH_ARGS)

# REV: the base revision (default: merge-base with main); BENCH_ARGS as above.
bench-compare:
	@scripts/bench-compare.sh $(REV) -- $(BENCH_ARGS)

checkpatch:
	@scripts/checkpatch

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -rf $(BUILD)

help:
	@sed -n '2,20s/^# \{0,1\}//p' Makefile
