# SPDX-License-Identifier: GPL-2.0-only
#
# vnpu top-level build. Everything is built under build/.
#
#   make            module, library, tools and tests
#   make run        the demo: boot the guest, load vnpu, show the devices
#   make check      all tests (host, then in the VM); ends with "N passed, N failed"
#   make deps       install the build and test dependencies with apt
#   make checkpatch kernel style check of kernel/ and include/uapi/
#   make api-coverage  declared / implemented / not-supported ACL functions per header
#   make install    PREFIX=/usr/local DESTDIR= : library, headers, pkg-config, set_env.sh, tools, Python module
#
# KVER=<version> selects the Debian kernel (default: the newest 6.12 apt
# knows, recorded in build/kver); KDIR=<tree> builds the module against any
# kernel tree instead, e.g. KDIR=/lib/modules/$(uname -r)/build.

TOP     := $(abspath .)
B       := $(TOP)/build
PREFIX  ?= /usr/local
DESTDIR ?=

# Make sure dependencies exist before anything asks the kernel version,
# but only for targets that need them.
NODEPS_GOALS := deps clean distclean help
ifeq ($(filter $(NODEPS_GOALS),$(MAKECMDGOALS)),)
ifeq ($(KDIR),)
DEPS_OK := $(shell $(TOP)/scripts/deps.sh check >/dev/null 2>&1 && echo y)
ifneq ($(DEPS_OK),y)
$(info deps: something is missing, running scripts/deps.sh install)
DEPS_RUN := $(shell $(TOP)/scripts/deps.sh install >&2 && echo y)
ifneq ($(DEPS_RUN),y)
$(error dependency installation failed; see the messages above)
endif
endif
endif
endif
ifeq ($(KVER),)
KVER := $(shell $(TOP)/scripts/deps.sh kver 2>/dev/null)
endif
KDIR ?= /lib/modules/$(KVER)/build
export KVER

CC      ?= gcc
CXX     ?= g++
CWARN   := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wno-unused-parameter -Werror
CFLAGS  ?= -O2 -g
LIBDRM_CFLAGS := $(shell pkg-config --cflags libdrm 2>/dev/null)
LIBDRM_LIBS   := $(shell pkg-config --libs libdrm 2>/dev/null)
INCS    := -I$(TOP)/include -I$(TOP)/include/uapi $(LIBDRM_CFLAGS)

.PHONY: all deps module lib tools tests run check check-host check-vm \
        checkpatch install clean help api-coverage api-stubs
all: module lib ops tools tests

help:
	@sed -n '3,16p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@$(TOP)/scripts/deps.sh install

# ---------------------------------------------------------------- module --
KMOD := $(B)/kmod
KSRC := $(shell find kernel -name '*.[ch]' -o -name '*.def') Kbuild include/uapi/drm/vnpu_accel.h

module: $(KMOD)/vnpu.ko

$(KMOD)/vnpu_compat.h: scripts/kconfigure.sh
	@mkdir -p $(KMOD)
	@$(TOP)/scripts/kconfigure.sh $(KDIR) $(KMOD)

$(KMOD)/vnpu.ko: $(KSRC) $(KMOD)/vnpu_compat.h scripts/mirror-kmod.sh
	@$(TOP)/scripts/mirror-kmod.sh $(TOP) $(KMOD)
	$(MAKE) -C $(KDIR) M=$(KMOD) W=1 modules

LINUX_SRC := $(B)/linux-src
$(LINUX_SRC)/.extracted: scripts/linux-src.sh
	@$(TOP)/scripts/linux-src.sh $(LINUX_SRC)

checkpatch: $(LINUX_SRC)/.extracted
	@perl $(LINUX_SRC)/scripts/checkpatch.pl --strict --no-tree --quiet \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG \
		-f $(shell find kernel include/uapi -name '*.[ch]' | sort) && \
		echo "checkpatch: clean"

# --------------------------------------------------------------- library --
include lib/lib.mk

# ------------------------------------------------------ operator library --
include kernel/ops/ops.mk

# ----------------------------------------------------------------- tools --
include tools/tools.mk
include tools/atc/atc.mk

# ---------------------------------------------------------------- python --
include python/python.mk

# ----------------------------------------------------------------- tests --
include tests/tests.mk

# ------------------------------------------------------------------- run --
# The demo runs on the module's default parameters, as a user's insmod:
# a ResNet-18 inference is one job of seconds of emulated compute, and its
# operator pieces report progress often enough for the default hang
# detection even on a busy machine (Documentation/queues.md).
run: all $(MODEL_RUN_DEPS)
	@$(TOP)/tools/vm/vnpu-vm run -- $(TOP)/tools/run-demo.sh

# ---------------------------------------------------------- API coverage --
# Every function the public headers declare links: what the runtime does
# not implement is a weak not-supported definition generated from the
# headers (lib/api/unsupported_*.c). api-stubs regenerates them after a
# function is implemented or declared; api-coverage prints the table and
# refreshes Documentation/api-coverage.md. See Documentation/api-coverage.md.
PYTHON ?= /usr/bin/python3

api-stubs: $(filter-out $(LIB_B)/obj/api/unsupported_%.o,$(LIB_OBJS))
	$(PYTHON) scripts/gen-unsupported.py $(LIB_B)/obj
	$(MAKE) lib

api-coverage: lib
	$(PYTHON) scripts/api-coverage.py $(LIB_SO_REAL) \
		--markdown Documentation/api-coverage.md

# --------------------------------------------------------------- install --
install: lib tools
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include \
		$(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/bin
	@$(TOP)/scripts/remove-old-names.sh $(DESTDIR)$(PREFIX)/lib
	install -m 0644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 0755 $(LIB_SO_REAL) $(DESTDIR)$(PREFIX)/lib/
	ln -sfn $(notdir $(LIB_SO_REAL)) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	for n in $(LIB_LINKNAMES); do \
		ln -sfn $(LIB_SONAME) $(DESTDIR)$(PREFIX)/lib/$$n || exit 1; done
	@# CANN keeps its libraries in lib64/ (ggml's CMake looks only there).
	[ -e $(DESTDIR)$(PREFIX)/lib64 ] || ln -s lib $(DESTDIR)$(PREFIX)/lib64
	cp -r include/acl include/aclnn include/aclnnop include/mstx $(DESTDIR)$(PREFIX)/include/
	install -d $(DESTDIR)$(PREFIX)/include/drm
	install -m 0644 include/uapi/drm/vnpu_accel.h $(DESTDIR)$(PREFIX)/include/drm/
	for pc in $(LIB_PCS); do \
		sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(LIB_VERSION)|' \
			lib/$${pc}.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/$$pc || exit 1; done
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(PREFIX)/lib|' \
		-e 's|@BINDIR@|$(PREFIX)/bin|' -e 's|@VERSION@|$(LIB_VERSION)|' \
		lib/set_env.sh.in > $(DESTDIR)$(PREFIX)/set_env.sh
	chmod 0644 $(DESTDIR)$(PREFIX)/set_env.sh
	install -m 0755 $(B)/tools/vnpu-smi $(B)/tools/npu-smi $(B)/tools/atc $(B)/tools/msprof $(DESTDIR)$(PREFIX)/bin/
	install -m 0755 tools/dump/vnpu-dump $(DESTDIR)$(PREFIX)/bin/

clean:
	rm -rf $(B)
