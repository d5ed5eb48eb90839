# libacl: the ACL runtime. Included by the top-level Makefile.
#
# One shared object, libacl.so.1, also reachable under the names CANN
# programs link against (libascendcl.so, libopapi.so, libnnopbase.so), and
# a static libacl.a. Only the ACL API is exported: everything is built
# with -fvisibility=hidden, the headers mark API functions visible, and a
# version script is the second fence.

LIB_VERSION   := 0.1.0
LIB_SONAME    := libacl.so.1
LIB_LINKNAMES := libacl.so libascendcl.so libopapi.so libnnopbase.so
LIB_B         := $(B)/lib
LIB_A         := $(LIB_B)/libacl.a
LIB_SO_REAL   := $(LIB_B)/libacl.so.$(LIB_VERSION)

LIB_SRCS := $(sort $(wildcard lib/api/*.c lib/core/*.c lib/kmd/*.c lib/nn/*.c))
LIB_OBJS := $(patsubst lib/%.c,$(LIB_B)/obj/%.o,$(LIB_SRCS))
LIB_CFLAGS := -std=c11 -D_GNU_SOURCE -DFUNC_VISIBILITY -fPIC \
              -fvisibility=hidden $(CWARN) $(CFLAGS) $(INCS)
LIB_LDLIBS := $(LIBDRM_LIBS) -luring -lpthread

lib: $(LIB_A) $(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) \
     $(LIB_B)/pkgconfig/acl.pc

$(LIB_B)/obj/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(LIB_CFLAGS) -MMD -MP -c $< -o $@

-include $(LIB_OBJS:.o=.d)

$(LIB_A): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO_REAL): $(LIB_OBJS) lib/libacl.map
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -Wl,--version-script=lib/libacl.map \
		-Wl,--no-undefined -o $@ $(LIB_OBJS) $(LIB_LDLIBS)

$(LIB_B)/$(LIB_SONAME): $(LIB_SO_REAL)
	ln -sfn $(notdir $<) $@

$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)): $(LIB_B)/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $@

# An uninstalled .pc for building against the tree.
$(LIB_B)/pkgconfig/acl.pc: lib/acl.pc.in
	@mkdir -p $(dir $@)
	sed -e 's|^prefix=.*|prefix=$(TOP)|' -e 's|^libdir=.*|libdir=$(LIB_B)|' \
		-e 's|@VERSION@|$(LIB_VERSION)|' $< > $@
