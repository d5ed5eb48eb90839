# atc: the ONNX to offline-model converter. Included by the top-level
# Makefile. The ONNX message code is generated at build time from
# Debian's onnx.proto (libonnx-dev) with protoc-c; nothing generated is
# committed.
#
# atc is the command line and the ONNX/JSON readers; the compiler itself
# (passes, lowering, planning, the .om writer) is lib/compile, part of
# libascendcl, so atc links the internal archive of the library's objects
# and includes only lib/compile/compile.h of it.

ATC_B      := $(B)/atc
ONNX_PROTO ?= /usr/include/onnx/onnx.proto
ATC_SRCS   := $(wildcard tools/atc/*.c)
ATC_OBJS   := $(patsubst tools/atc/%.c,$(ATC_B)/%.o,$(ATC_SRCS)) $(ATC_B)/onnx.pb-c.o
ATC_CFLAGS := -std=c11 -D_GNU_SOURCE $(CWARN) $(CFLAGS) -I$(ATC_B) -Itools/atc \
              -Ilib $(INCS)
ATC_LIBS   := $(LIB_INTERNAL_A) -lprotobuf-c -ljson-c $(LIBDRM_LIBS) -luring -lpthread -lm

tools: $(TOOLS_B)/atc

$(ATC_B)/onnx.pb-c.c $(ATC_B)/onnx.pb-c.h &: $(ONNX_PROTO)
	@mkdir -p $(ATC_B)
	cp $(ONNX_PROTO) $(ATC_B)/onnx.proto
	cd $(ATC_B) && protoc-c --c_out=. onnx.proto

# Generated code: compiled without the project's warning flags.
$(ATC_B)/onnx.pb-c.o: $(ATC_B)/onnx.pb-c.c
	$(CC) -std=c11 $(CFLAGS) -I$(ATC_B) -c $< -o $@

$(ATC_B)/%.o: tools/atc/%.c $(ATC_B)/onnx.pb-c.h $(wildcard tools/atc/*.h) \
		$(wildcard lib/compile/*.h) lib/om/om_format.h \
		kernel/ops/vnpu_dtype.h kernel/ops/vnpu_dtypes.def
	@mkdir -p $(ATC_B)
	$(CC) $(ATC_CFLAGS) -c $< -o $@

$(TOOLS_B)/atc: $(ATC_OBJS) $(LIB_INTERNAL_A)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(ATC_OBJS) $(ATC_LIBS)
