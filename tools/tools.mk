# Tools. Included by the top-level Makefile.

TOOLS_B := $(B)/tools
TOOL_CFLAGS := -std=c11 -D_GNU_SOURCE $(CWARN) $(CFLAGS) $(INCS)

tools: $(TOOLS_B)/vnpu-smi $(TOOLS_B)/msprof $(TOOLS_B)/npu-smi

# vnpu-dump (tools/dump) is a Python script: nothing to build; make
# install copies it to bin/ (Documentation/dump.md).

$(TOOLS_B)/vnpu-smi: tools/vnpu-smi/vnpu-smi.c include/uapi/drm/vnpu_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(LIBDRM_LIBS)

# npu-smi: CANN's "npu-smi info" table (Documentation/llm.md).
$(TOOLS_B)/npu-smi: tools/npu-smi/npu-smi.c lib/core/soc.h include/uapi/drm/vnpu_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(LIBDRM_LIBS)

# msprof links the exporter from the internal archive (only the
# prof/export objects are pulled in; it needs no device).
$(TOOLS_B)/msprof: tools/msprof/msprof.c lib/prof/prof.h $(LIB_INTERNAL_A)
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(LIB_INTERNAL_A) -ljson-c

# Sample ACL programs, linked as a CANN program would be.
SAMPLES := $(B)/samples/device_query
tools: $(SAMPLES)

$(B)/samples/%: samples/%.c $(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude -o $@ $< \
		-L$(LIB_B) -lascendcl -Wl,-rpath,$(LIB_B)

# Examples (examples/), linked as CANN programs are: -lascendcl -lnnopbase
# -lopapi, with an rpath to the build's library.
EXAMPLES_B := $(B)/examples
EXAMPLES := $(addprefix $(EXAMPLES_B)/,memory streams_events callback matmul mlp graph resnet dvpp_video \
                                           dvpp_resnet)
EXAMPLE_LIBS := -L$(LIB_B) -lascendcl -lnnopbase -lopapi -Wl,-rpath,$(LIB_B)
EXAMPLE_DEPS := $(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) examples/common.h
tools: $(EXAMPLES)
# The video example decodes the clip the VDEC tests use (tests/tests.mk).
$(EXAMPLES_B)/dvpp_video $(EXAMPLES_B)/dvpp_resnet: $(B)/tests/acl/media/.stamp

$(EXAMPLES_B)/%: examples/%.c $(EXAMPLE_DEPS)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Iinclude -o $@ $< \
		$(EXAMPLE_LIBS) -lpthread -lm

$(EXAMPLES_B)/%: examples/%.cpp $(EXAMPLE_DEPS)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Iinclude -o $@ $< $(EXAMPLE_LIBS)
