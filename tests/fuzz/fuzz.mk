# The driver fuzzer (tests/fuzz/). Included by tests/tests.mk.
#
#   make fuzz [SECONDS=600] [SEED=S]   boot the guest and fuzz for SECONDS
#                                      (seed: from the clock unless given)
#
# The log (one line per call) goes to build/fuzz/fuzz.log; the fuzzer
# prints its seed first and the last calls when it finds a problem. A
# short fixed-seed run is part of `make check` (tests/fuzz/fuzz_suite.sh).
# See Documentation/fuzzing.md.

FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
FUZZ_BIN  := $(TESTS_B)/fuzz/vnpu_fuzz
SECONDS   ?= 600
SEED      ?=

tests: $(FUZZ_BIN)

$(FUZZ_BIN): $(FUZZ_SRCS) tests/fuzz/fuzz.h include/uapi/drm/vnpu_accel.h kernel/ops/vnpu_dtype.h \
		kernel/ops/vnpu_dtypes.def
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -O2 -o $@ $(FUZZ_SRCS) -luring -lpthread

.PHONY: fuzz
fuzz: all
	@mkdir -p $(B)/fuzz
	@rm -f $(B)/fuzz/fuzz.log
	$(TOP)/tools/vm/vnpu-vm run --timeout $$(( $(SECONDS) + 600 )) -- \
		$(FUZZ_BIN) --user 65534 --seconds $(SECONDS) $(if $(SEED),--seed $(SEED)) \
		--log $(B)/fuzz/fuzz.log
