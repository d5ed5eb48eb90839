# The test models of issue 13. Included by tests/tests.mk.
#
#   make models     PyTorch exports ResNet-18, MobileNetV2 and a
#                   TransformerEncoderLayer (ONNX, seeded inputs, PyTorch's
#                   outputs) into build/models/; cached: redone only when
#                   tests/models/make_models.py changes
#   make models-om  atc converts them (build/models/NAME.om, with atc's
#                   messages in NAME.atc.log); redone when atc or the
#                   export changes
#
# VNPU_MODEL_TESTS=1 (the default) puts the export before the host tests
# of `make check` and `make check-host` (atc's atc_models_test and
# atc_run_test read the exports) and the conversion before the guest boot
# (acl_models_test then runs in the default boot), and makes `make run`
# and `make bench` convert what they use. VNPU_MODEL_TESTS=0 leaves the
# models out (their tests then skip).
VNPU_MODEL_TESTS ?= 1
export VNPU_MODEL_TESTS

MODELS_B      := $(B)/models
MODELS_SCRIPT := tests/models/make_models.py
MODELS_STAMP  := $(MODELS_B)/.exported
MODEL_OMS     := $(addprefix $(MODELS_B)/,resnet18.om mobilenet_v2.om transformer.om resnet18_dyn.om \
                   resnet18_aipp.om)
# ResNet-18 on 32x32 images, for the benchmark's host cost per inference.
MODEL_BENCH_OMS := $(addprefix $(MODELS_B)/,resnet18.om mobilenet_v2.om resnet18_32.om \
                   resnet18_aipp.om)
ATC_BIN       := $(TOOLS_B)/atc
ATC_COMMON    := --framework=5 --soc_version=Ascend310 --log=error

.PHONY: models models-om
models: $(MODELS_STAMP)
models-om: $(MODEL_OMS)

$(MODELS_STAMP): $(MODELS_SCRIPT)
	@mkdir -p $(MODELS_B)
	/usr/bin/python3 $(MODELS_SCRIPT) $(MODELS_B)
	@touch $@

# The extra options of one model's conversion.
ATC_OPTS_resnet18_dyn := --input_shape="input:-1,3,64,64" --dynamic_batch_size="1,2,4"
ATC_OPTS_resnet18_32 := --input_shape="input:1,3,32,32"
# ResNet-18 taking a 224x224 NV12 picture (examples/dvpp_resnet).
ATC_OPTS_resnet18_aipp := --insert_op_conf=$(TOP)/examples/resnet18_aipp.cfg
# The ONNX file a model is converted from, when not NAME.onnx.
ATC_SRC_resnet18_32 := resnet18
ATC_SRC_resnet18_aipp := resnet18
$(MODELS_B)/resnet18_aipp.om: examples/resnet18_aipp.cfg

$(MODELS_B)/%.om: $(MODELS_STAMP) $(ATC_BIN)
	@rm -f $@
	@echo "  ATC     $*.om"
	@$(ATC_BIN) --model=$(MODELS_B)/$(or $(ATC_SRC_$*),$*).onnx --output=$(MODELS_B)/$* $(ATC_COMMON) \
		$(ATC_OPTS_$*) > $(MODELS_B)/$*.atc.log 2>&1 || \
		{ echo "atc failed on $*.onnx (exit $$?):"; cat $(MODELS_B)/$*.atc.log; exit 1; }
	@test -s $@ || { echo "atc made no $@"; exit 1; }

# ResNet-50 (issue 35 section 4): fp16 images in, exported with a symbolic
# batch by its own script (tests/models/make_resnet50.py, so that the
# models above are not redone), converted at batch 1 (make check) and
# batch 8 (make check-bigmodel). acl_resnet50_test runs them on the
# module's default parameters.
RESNET50_STAMP := $(MODELS_B)/.resnet50
RESNET50_OMS   := $(MODELS_B)/resnet50_b1.om $(MODELS_B)/resnet50_b8.om

$(RESNET50_STAMP): tests/models/make_resnet50.py
	@mkdir -p $(MODELS_B)
	/usr/bin/python3 tests/models/make_resnet50.py $(MODELS_B)
	@touch $@

$(RESNET50_OMS): $(MODELS_B)/resnet50_b%.om: $(RESNET50_STAMP) $(ATC_BIN)
	@rm -f $@
	@echo "  ATC     resnet50_b$*.om"
	@$(ATC_BIN) --model=$(MODELS_B)/resnet50.onnx --output=$(MODELS_B)/resnet50_b$* \
		$(ATC_COMMON) --input_shape="input:$*,3,224,224" > $(MODELS_B)/resnet50_b$*.atc.log 2>&1 || \
		{ echo "atc failed on resnet50.onnx (exit $$?):"; cat $(MODELS_B)/resnet50_b$*.atc.log; exit 1; }
	@test -s $@ || { echo "atc made no $@"; exit 1; }

models-om: $(MODELS_B)/resnet50_b1.om

# What `make check` and `make run` add when the model tests are on.
# A conversion that fails does not stop `make check`: acl_models_test
# then reports the missing model (and atc's log is printed here).
ifeq ($(VNPU_MODEL_TESTS),1)
MODEL_EXPORT_STEP := $(MAKE) --no-print-directory models || true
MODEL_CHECK_STEP := $(MAKE) --no-print-directory -k models-om || true
MODEL_RUN_DEPS   := $(MODELS_B)/resnet18.om $(MODELS_B)/resnet18_aipp.om
MODEL_BENCH_DEPS := $(MODEL_BENCH_OMS)
else
MODEL_EXPORT_STEP := true
MODEL_CHECK_STEP := true
endif
