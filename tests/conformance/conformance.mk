# The ONNX backend conformance runner (issue 14). Included by tests/tests.mk.
#
#   make conformance-host [CONF_FILTER=regex]
#       prepare the tests (inputs, expected outputs, atc), run every compiled
#       model on the host with the operator library's host build, write
#       build/conformance/report-host.json
#   make conformance [CONF_FILTER=regex]
#       the same through libacl's aclmdlExecute in one guest boot:
#       build/conformance/report.json (and, unfiltered, the generated
#       Documentation/conformance.md)
#   make conformance-update
#       tests/conformance/passing.txt from the latest guest report
#
# CONF_FILTER is a Python regular expression searched in "suite/test",
# e.g. CONF_FILTER='node/test_(relu|clip)'; a filtered run also lists each
# test that does not pass, with why. See Documentation/conformance.md.

CONF_B      := $(B)/conformance
CONF_TOOLS  := tools/conformance
CONF_PASSING := tests/conformance/passing.txt
CONF_FILTER ?=
CONF_PREPARE = $(PYTHON) $(CONF_TOOLS)/prepare.py --atc $(TOOLS_B)/atc --out $(CONF_B) -j 2 \
	$(if $(CONF_FILTER),--filter '$(CONF_FILTER)')
CONF_HOST_BIN := $(TESTS_B)/conformance/conf_host
# The guest mode's relaxed hang limits: one test is one job, some of them
# long under emulation (as the models boot of make check).
CONF_VM_PARAMS := job_timeout_ms=30000 job_max_ms=600000

.PHONY: conformance conformance-host conformance-update conformance-prepare
tests: $(CONF_HOST_BIN)

# om_host_exec.h runs host nodes with the host operators (lib/aicpu).
$(CONF_HOST_BIN): tests/conformance/conf_host.c tests/conformance/conf_io.h \
		tests/unit/om_host_exec.h lib/om/om_format.h $(OPS_LIB) \
		$(wildcard lib/aicpu/*.c lib/aicpu/*.h) kernel/ops/vnpu_dtypes.def
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation \
		-Wno-sign-compare -Itests/conformance -Itests/unit -Ilib/om -Itools/ops-host \
		-Ikernel/ops -Iinclude -Iinclude/uapi $(LIBDRM_CFLAGS) -o $@ $< $(wildcard lib/aicpu/*.c) \
		$(OPS_LIB) -lm

conformance-prepare: $(TOOLS_B)/atc
	$(CONF_PREPARE)

conformance-host: $(TOOLS_B)/atc $(CONF_HOST_BIN)
	$(CONF_PREPARE)
	$(CONF_HOST_BIN) $(CONF_B)/tests.txt
	$(PYTHON) $(CONF_TOOLS)/compare.py --out $(CONF_B) --mode host \
		--report $(CONF_B)/report-host.json $(if $(CONF_FILTER),--verbose)

# The guest runner: a CANN-style aclmdl program against the built runtime.
CONF_RUN_BIN := $(TESTS_B)/conformance/conf_run
tests: $(CONF_RUN_BIN)
$(CONF_RUN_BIN): tests/conformance/conf_run.c tests/conformance/conf_io.h $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation \
		-Wno-deprecated-declarations $(INCS) -Itests/conformance -o $@ $< \
		-L$(LIB_B) -lascendcl $(TEST_RPATH)

# One guest boot runs every compiled test; the compare step and (for a
# full run) the generated document follow on the host.
conformance: all
	$(CONF_PREPARE)
	tests/conformance/conf_guest.sh pack $(CONF_B)
	$(TOP)/tools/vm/vnpu-vm run --params "$(CONF_VM_PARAMS)" -- \
		env VNPU_SUBMIT=uring $(TOP)/tests/conformance/conf_guest.sh run $(CONF_B)
	tests/conformance/conf_guest.sh unpack $(CONF_B)
	$(PYTHON) $(CONF_TOOLS)/compare.py --out $(CONF_B) --mode guest \
		--report $(CONF_B)/report.json $(if $(CONF_FILTER),--verbose)
	$(if $(CONF_FILTER),@echo "conformance: filtered run: Documentation/conformance.md left as it is", \
		$(PYTHON) $(CONF_TOOLS)/gen_doc.py $(CONF_B)/report.json Documentation/conformance.md)

conformance-update:
	$(PYTHON) $(CONF_TOOLS)/update_passing.py $(CONF_B)/report.json $(CONF_PASSING)

# make check: the tests of the passing list, prepared on the host before
# the guest boots (tests/run-vm.sh runs them in its models boot and judges
# them against the list). CONF_CHECK_SET=all prepares every test instead,
# so newly passing ones show up as TODO lines.
CONF_CHECK_B := $(B)/conformance-check
CONF_CHECK_SET ?= passing
CONF_CHECK_STEP := $(MAKE) --no-print-directory conformance-check-prepare || true
.PHONY: conformance-check-prepare
conformance-check-prepare: $(TOOLS_B)/atc
	@rm -rf $(CONF_CHECK_B)
	$(PYTHON) $(CONF_TOOLS)/prepare.py --atc $(TOOLS_B)/atc --out $(CONF_CHECK_B) -j 2 \
		$(if $(filter all,$(CONF_CHECK_SET)),,--list $(CONF_PASSING))
	tests/conformance/conf_guest.sh pack $(CONF_CHECK_B)
