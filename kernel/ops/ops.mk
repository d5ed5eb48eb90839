# The operator library built for the host (tests and benchmarks). Included
# by the top-level Makefile; the module builds the same files through Kbuild.

OPS_B    := $(B)/ops
OPS_SRCS := $(sort $(wildcard kernel/ops/*.c))
OPS_OBJS := $(patsubst kernel/ops/%.c,$(OPS_B)/obj/%.o,$(OPS_SRCS))
OPS_LIB  := $(OPS_B)/libvnpuops.a
# The same freestanding discipline as in the module: no libc calls.
# Operator tables list their fields in order and leave the optional
# trailing ones (phases) out.
OPS_CFLAGS := -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-math-errno \
              -Wall -Wextra -Werror -Wno-unused-parameter \
              -Wno-missing-field-initializers \
              -Itools/ops-host -Iinclude $(LIBDRM_CFLAGS)

.PHONY: ops
ops: $(OPS_LIB)

$(OPS_B)/obj/%.o: kernel/ops/%.c $(wildcard kernel/ops/*.h kernel/ops/*.def) tools/ops-host/vnpu_ops_types.h
	@mkdir -p $(dir $@)
	$(CC) $(OPS_CFLAGS) -c $< -o $@

$(OPS_LIB): $(OPS_OBJS)
	@rm -f $@
	ar rcs $@ $^

# The operators the registry implements, as the .om loader's table.
$(OPS_B)/om_ops_gen: tools/ops-host/om_ops_gen.c $(OPS_LIB)
	$(CC) -std=gnu11 -O1 -Wall -Wextra -Werror -Itools/ops-host -Ikernel/ops \
		-Iinclude $(LIBDRM_CFLAGS) -o $@ $< $(OPS_LIB) -lm

$(OM_OPS_H): $(OPS_B)/om_ops_gen
	@mkdir -p $(dir $@)
	$< > $@.tmp && mv $@.tmp $@
