# ThreadSanitizer build of libacl and its suites. Included by tests/tests.mk.
#
#   make tsan    build libascendcl and every tests/acl/*_test.c with
#                -fsanitize=thread under build/tsan/, boot the guest once
#                and run them there; any TSan report fails the target
#
# The objects live apart from the normal build (build/tsan/), so the two
# never mix. The runtime is gcc's libtsan (package libtsan2, which gcc-12
# pulls in; scripts/deps.sh names it too). `make check` runs the threaded
# suites among them (callback, graph, stream) in a boot of their own
# (tests/run-vm.sh). See Documentation/testing.md.

TSAN_B      := $(B)/tsan
TSAN_FLAGS  := -fsanitize=thread -g -O1
TSAN_LIB_B  := $(TSAN_B)/lib
TSAN_LIB_OBJS := $(patsubst lib/%.c,$(TSAN_LIB_B)/obj/%.o,$(LIB_SRCS))
TSAN_LIB_SO := $(TSAN_LIB_B)/libascendcl.so.$(LIB_SOVERSION)
TSAN_TESTS  := $(patsubst tests/acl/%.c,$(TSAN_B)/tests/%,$(wildcard tests/acl/*_test.c))

tsan-build: $(TSAN_TESTS)
tests: tsan-build

$(TSAN_LIB_B)/obj/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -DFUNC_VISIBILITY -fPIC -fvisibility=hidden \
		$(CWARN) $(TSAN_FLAGS) $(INCS) -MMD -MP -c $< -o $@

-include $(TSAN_LIB_OBJS:.o=.d)
$(TSAN_LIB_B)/obj/om/om_types.o: $(OM_OPS_H)
$(TSAN_LIB_B)/obj/core/op_names.o: $(OP_NAMES_H)

# atc's compiler (aclopCompile) goes in uninstrumented: it is single-threaded.
$(TSAN_LIB_SO): $(TSAN_LIB_OBJS) lib/libacl.map
	$(CC) -shared -fsanitize=thread -Wl,-soname,$(LIB_SONAME) \
		-Wl,--version-script=lib/libacl.map -Wl,--no-undefined \
		-o $@ $(TSAN_LIB_OBJS) $(LIB_LDLIBS)

$(TSAN_LIB_B)/$(LIB_SONAME): $(TSAN_LIB_SO)
	ln -sfn $(notdir $<) $@

$(TSAN_LIB_B)/libascendcl.so: $(TSAN_LIB_B)/$(LIB_SONAME)
	ln -sfn $(LIB_SONAME) $@

# The rpath points at the TSan library, never at build/lib.
$(TSAN_B)/tests/%: tests/acl/%.c $(wildcard tests/acl/*.h) $(TSAN_LIB_B)/libascendcl.so \
		$(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TSAN_FLAGS) -o $@ $< -L$(TSAN_LIB_B) -lascendcl \
		$(TSAN_TEST_LIBS) -lpthread -lm -Wl,-rpath,$(TSAN_LIB_B)
# The profiling test reads the library's internals: it links the objects.
$(TSAN_B)/tests/acl_prof_test: tests/acl/acl_prof_test.c $(wildcard tests/acl/*.h) \
		$(TSAN_LIB_OBJS) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(TSAN_FLAGS) -Ilib -o $@ $< $(TSAN_LIB_OBJS) \
		$(LIB_LDLIBS) -ldl
# The DVPP codec test makes its files with libjpeg-turbo and libpng.
$(TSAN_B)/tests/acl_dvpp_codec_test: TSAN_TEST_LIBS := -lturbojpeg -lpng16
$(TSAN_B)/tests/acl_dvpp_vdec_test: $(ACL_MEDIA)/.stamp

TSAN_VM_PARAMS := $(shell . $(TOP)/tests/tsan/tsan-params.sh && echo "$$TSAN_VM_PARAMS")

.PHONY: tsan tsan-build
tsan: all
	@rm -rf $(RESULTS)/tsan
	@$(TOP)/tools/vm/vnpu-vm run --params "$(TSAN_VM_PARAMS)" -- \
		$(TOP)/tests/tsan/run-tsan.sh $(RESULTS)/tsan; rc=$$?; \
		$(TOP)/scripts/tap-summary.sh $(RESULTS)/tsan; exit $$rc
