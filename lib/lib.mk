# libacl: the ACL runtime. Included by the top-level Makefile.
#
# "libacl" is this project's word for the runtime; no file is named after
# it. Debian's POSIX ACL library owns libacl.so.1 (package libacl1, loaded
# by cp, mv, sed and systemd), so a file or SONAME of that name would break
# the machine it lands on. The runtime is CANN's libascendcl:
#
#   libascendcl.so.$(LIB_SOVERSION)   the one real shared object, SONAME libascendcl.so.$(LIB_SOMAJOR)
#   libascendcl.so.$(LIB_SOMAJOR)         -> the real object (the SONAME link)
#   libascendcl.so, libacl_rt.so,        -> libascendcl.so.$(LIB_SOMAJOR): the names
#   libopapi.so, libopapi_math.so,          CANN programs link with -l...
#   libopapi_nn.so, libnnopbase.so,
#   libacl_op_compiler.so, libacl_dvpp.so,
#   libacl_cblas.so, libms_tools_ext.so
#   (mstx markers)
#   libascendcl.a                        one relocatable object; only acl* is global
#
# Only the ACL API is exported: everything is built with
# -fvisibility=hidden, the headers mark API functions visible, and a version
# script is the second fence. The static archive holds a single object
# made with `ld -r` whose hidden symbols are then made local, so that its
# internals (device_set, copy_sync, kmd_*, ...) cannot collide with a
# program's own names. The tests that call internals link
# $(LIB_INTERNAL_A), a plain archive of the objects that is never
# installed. See Documentation/install.md.

LIB_VERSION   := 0.1.0
LIB_SOMAJOR   := 1
LIB_SOVERSION := $(LIB_SOMAJOR).0.0
LIB_SONAME    := libascendcl.so.$(LIB_SOMAJOR)
LIB_LINKNAMES := libascendcl.so libacl_rt.so libopapi.so libopapi_math.so \
                 libopapi_nn.so libnnopbase.so libacl_op_compiler.so libacl_dvpp.so \
                 libacl_cblas.so libms_tools_ext.so
LIB_B         := $(B)/lib
LIB_A         := $(LIB_B)/libascendcl.a
LIB_SO_REAL   := $(LIB_B)/libascendcl.so.$(LIB_SOVERSION)
LIB_INTERNAL_A := $(LIB_B)/internal/libascendcl_internal.a
LIB_PCS       := ascendcl.pc acl.pc
OBJCOPY       ?= objcopy

LIB_SRCS := $(sort $(wildcard lib/api/*.c lib/core/*.c lib/kmd/*.c lib/nn/*.c lib/mdl/*.c \
                               lib/op/*.c lib/aicpu/*.c lib/compile/*.c lib/om/*.c \
                               lib/dvpp/*.c lib/prof/*.c lib/prof/export/*.c \
                               lib/dump/*.c lib/blas/*.c))
LIB_OBJS := $(patsubst lib/%.c,$(LIB_B)/obj/%.o,$(LIB_SRCS))
# The device operators the .om loader accepts (lib/om/om_types.c): a
# header generated from the operator registry (rule in kernel/ops/ops.mk).
OM_OPS_H := $(LIB_B)/gen/om_device_ops.h
INCS += -I$(LIB_B)/gen
# lib/dvpp's codecs: libjpeg-turbo (TurboJPEG) and libpng are linked;
# libavcodec/libavutil are loaded when a video decoder is first made
# (lib/dvpp/codec_av.h says why), so only their headers are needed here.
DVPP_CODEC_CFLAGS := $(shell pkg-config --cflags libturbojpeg libpng16 libavcodec libavutil 2>/dev/null)
DVPP_CODEC_LIBS   := $(or $(shell pkg-config --libs libturbojpeg libpng16 2>/dev/null),\
                       -lturbojpeg -lpng16)
# lib/prof reads acl.json's "profiler" section and writes its info
# files with json-c.
JSONC_CFLAGS := $(shell pkg-config --cflags json-c 2>/dev/null)
JSONC_LIBS   := $(or $(shell pkg-config --libs json-c 2>/dev/null),-ljson-c)
LIB_CFLAGS := -std=c11 -D_GNU_SOURCE -DFUNC_VISIBILITY -fPIC \
              -fvisibility=hidden $(CWARN) $(CFLAGS) $(INCS) $(DVPP_CODEC_CFLAGS) \
              $(JSONC_CFLAGS)
LIB_LDLIBS := $(LIBDRM_LIBS) -luring -lpthread -lm $(DVPP_CODEC_LIBS) $(JSONC_LIBS)

lib: $(LIB_A) $(LIB_INTERNAL_A) $(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) \
     $(addprefix $(LIB_B)/pkgconfig/,$(LIB_PCS)) $(LIB_B)/set_env.sh

$(LIB_B)/obj/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

-include $(LIB_OBJS:.o=.d)
$(LIB_B)/obj/om/om_types.o: $(OM_OPS_H)

# The operators' names for the profiler's tags and the exporter's untagged
# tasks (lib/core/op_names.c), from the UAPI's enum drm_vnpu_op.
OP_NAMES_H := $(LIB_B)/gen/vnpu_op_names.h
$(OP_NAMES_H): include/uapi/drm/vnpu_accel.h
	@mkdir -p $(dir $@)
	sed -n 's/^\t*DRM_VNPU_OP_\([A-Z0-9_]*\) = \([0-9]*\),.*/\t[\2] = "\1",/p' $< > $@
$(LIB_B)/obj/core/op_names.o: $(OP_NAMES_H)

# One object: link all objects together, then make every hidden symbol
# local. What stays global is what the headers mark visible (acl*).
$(LIB_A): $(LIB_OBJS)
	@rm -f $@ $(LIB_B)/libascendcl.o $(LIB_B)/libascendcl.r.o
	$(LD) -r -o $(LIB_B)/libascendcl.r.o $^
	$(OBJCOPY) --localize-hidden $(LIB_B)/libascendcl.r.o $(LIB_B)/libascendcl.o
	ar rcs $@ $(LIB_B)/libascendcl.o
	@rm -f $(LIB_B)/libascendcl.o $(LIB_B)/libascendcl.r.o

# For the unit tests of internals only; not installed.
$(LIB_INTERNAL_A): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJS) lib/libacl.map
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libacl.map \
		-Wl,--no-undefined -o $@ $(LIB_OBJS) $(LIB_LDLIBS)

$(LIB_B)/$(LIB_SONAME): $(LIB_SO_REAL)
	ln -sfn $(notdir $<) $@

$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)): $(LIB_B)/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $@

# Uninstalled .pc files and set_env.sh for building against the tree.
$(LIB_B)/pkgconfig/%.pc: lib/%.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|^prefix=.*|prefix=$(TOP)|' -e 's|^libdir=.*|libdir=$(LIB_B)|' \
		-e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

$(LIB_B)/set_env.sh: lib/set_env.sh.in
	@mkdir -p $(dir $@)
	sed -e 's|@PREFIX@|$(TOP)|' -e 's|@LIBDIR@|$(LIB_B)|' \
		-e 's|@BINDIR@|$(B)/tools|' -e 's|@VERSION@|$(LIB_VERSION)|' $< > $@

# Old build trees hold files named libacl.so* / libacl.a: remove them so
# that nothing of that name lingers next to the new library.
lib: lib-remove-old-names
.PHONY: lib-remove-old-names
lib-remove-old-names:
	@rm -f $(LIB_B)/libacl.so $(LIB_B)/libacl.so.* $(LIB_B)/libacl.a

# The runtime with profiling compiled out (-DVNPU_PROF_COMPILED_OUT: no API
# spans, task tags or launch records), for tests/bench/prof_launch_bench.py
# to compare the eager launch cost against. Built by `make bench` only.
LIB_NOPROF_B   := $(B)/lib-noprof
LIB_NOPROF_OBJS := $(patsubst lib/%.c,$(LIB_NOPROF_B)/obj/%.o,$(LIB_SRCS))
LIB_NOPROF_SO  := $(LIB_NOPROF_B)/libascendcl.so.$(LIB_SOVERSION)

$(LIB_NOPROF_B)/obj/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -DVNPU_PROF_COMPILED_OUT -MMD -MP -c $< -o $@

-include $(LIB_NOPROF_OBJS:.o=.d)
$(LIB_NOPROF_B)/obj/om/om_types.o: $(OM_OPS_H)

$(LIB_NOPROF_SO): $(LIB_NOPROF_OBJS) lib/libacl.map
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libacl.map \
		-Wl,--no-undefined -o $@ $(LIB_NOPROF_OBJS) $(LIB_LDLIBS)

$(LIB_NOPROF_B)/$(LIB_SONAME): $(LIB_NOPROF_SO)
	ln -sfn $(notdir $<) $@

.PHONY: lib-noprof
lib-noprof: $(LIB_NOPROF_B)/$(LIB_SONAME)
