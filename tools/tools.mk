# Tools. Included by the top-level Makefile.

TOOLS_B := $(B)/tools
TOOL_CFLAGS := -std=c11 -D_GNU_SOURCE $(CWARN) $(CFLAGS) $(INCS)

tools: $(TOOLS_B)/vnpu-smi

$(TOOLS_B)/vnpu-smi: tools/vnpu-smi/vnpu-smi.c include/uapi/drm/vnpu_accel.h
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) -o $@ $< $(LIBDRM_LIBS)
