# The `acl` Python extension (pyACL's API over libascendcl). Included by
# the top-level Makefile. Built against Debian's python3-dev for
# /usr/bin/python3 and numpy's C API; the build tree is usable with
# PYTHONPATH=build/python. See Documentation/python.md.

PY_B       := $(B)/python
PY_CONFIG  := /usr/bin/python3-config
# Deferred: asked only when the module is built or installed.
PY_EXT      = $(shell $(PY_CONFIG) --extension-suffix)
PY_INCS     = $(shell $(PY_CONFIG) --includes | sed 's/-I/-isystem /g') \
              -isystem $(shell /usr/bin/python3 -c 'import numpy; print(numpy.get_include())')
# Debian's python3 searches PREFIX/lib/python3.N/dist-packages for /usr/local.
PY_SITE     = $(PREFIX)/lib/python$(shell /usr/bin/python3 -c \
              'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages
PY_SRCS    := $(sort $(wildcard python/acl/*.c))
PY_OBJS    := $(patsubst python/acl/%.c,$(PY_B)/obj/%.o,$(PY_SRCS))
PY_CFLAGS  := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden $(CWARN) $(CFLAGS) \
              $(INCS) -I$(PY_B)
PY_MOD      = $(PY_B)/acl$(PY_EXT)
# The pure-Python packages over `acl` (vnpu_runtime, cann_runtime, ...):
# copied next to the module so PYTHONPATH=build/python finds them too.
PY_PKG_SRCS := $(sort $(wildcard python/*/*.py))
PY_PKG_OUT  := $(patsubst python/%,$(PY_B)/%,$(PY_PKG_SRCS))

.PHONY: python python-install
all: python
python: $(PY_B)/.built $(PY_PKG_OUT)

# Every ACL_ERROR_* the headers define, as table rows for acl_module.c.
$(PY_B)/acl_errors.h: include/acl/acl_base_rt.h $(wildcard include/acl/error_codes/*.h)
	@mkdir -p $(dir $@)
	{ sed -n 's/^static const int \(ACL_ERROR_[A-Z0-9_]*\) = .*/C(\1),/p' include/acl/acl_base_rt.h; \
	  sed -n 's/^#define \(ACL_ERROR_[A-Z0-9_]*\) .*/C(\1),/p' include/acl/error_codes/*.h; \
	} | sort -u > $@

$(PY_B)/obj/%.o: python/acl/%.c python/acl/acl_py.h $(PY_B)/acl_errors.h
	@mkdir -p $(dir $@)
	$(CC) $(PY_CFLAGS) $(PY_INCS) -MMD -MP -c $< -o $@

-include $(PY_OBJS:.o=.d)

$(PY_B)/%.py: python/%.py
	@mkdir -p $(dir $@)
	cp $< $@

# The extension's file name carries the interpreter's suffix, which make
# learns only when it asks python3-config: a stamp stands for it.
$(PY_B)/.built: $(PY_OBJS) $(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	$(CC) -shared -o $(PY_MOD) $(PY_OBJS) -L$(LIB_B) -lascendcl -lpthread \
		-Wl,-rpath,$(LIB_B)
	@touch $@

# Installed copy: linked again with the prefix's library directory as rpath.
python-install: $(PY_B)/.built
	install -d $(DESTDIR)$(PY_SITE)
	$(CC) -shared -o $(DESTDIR)$(PY_SITE)/acl$(PY_EXT) $(PY_OBJS) -L$(LIB_B) -lascendcl \
		-lpthread -Wl,-rpath,$(PREFIX)/lib
	for f in $(patsubst python/%,%,$(PY_PKG_SRCS)); do \
		install -D -m 0644 python/$$f $(DESTDIR)$(PY_SITE)/$$f || exit 1; done
install: python-install

# The small PyTorch network test_vnpu_runtime.py compiles with atc and
# compares with, exported on the host (torch is too slow in the guest).
# Without torch the test skips that comparison and says why.
PY_TEST_B := $(B)/python-tests
all: $(PY_TEST_B)/hl_net.ref.npz
$(PY_TEST_B)/hl_net.ref.npz: tests/python/make_hl_net.py
	@mkdir -p $(PY_TEST_B)
	-/usr/bin/python3 tests/python/make_hl_net.py $(PY_TEST_B)
