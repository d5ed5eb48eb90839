# Tests. Included by the top-level Makefile.
#
# Host tests run directly; VM tests run inside the guest through
# tools/vm/vnpu-vm in as few boots as the module parameters allow. Every
# suite writes TAP under build/test-results/, and scripts/tap-summary.sh
# prints the closing "N passed, N failed, N skipped" line.

TESTS_B  := $(B)/tests
HARNESS  := -I$(LINUX_SRC)/tools/testing/selftests
TEST_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror \
               -Wno-unused-parameter -Wno-sign-compare -Wno-deprecated-declarations \
               $(INCS) $(HARNESS)
TEST_RPATH  := -Wl,-rpath,$(LIB_B)

# The aclnn suites, one per operator family (as lib/nn/nn_op_*.c) and one
# for the descriptor objects and executors.
ACLNN_FAMILIES := eltwise unary cast matmul norm conv reduce move sort meta
ACLNN_FAMILIES += compare
ACLNN_FAMILIES += activation
ACLNN_FAMILIES += scan
ACLNN_FAMILIES += loss
ACLNN_FAMILIES += pool
ACLNN_FAMILIES += resize
ACLNN_FAMILIES += conv3d
ACLNN_FAMILIES += quant
ACLNN_FAMILIES += promote

# The memory, sharing, job and scheduling kselftests, one per area (in
# the order tests/vm-suites.sh runs them), with a helper header per family.
KSFT_MEM       := bo data fault bo_valid copy_valid capacity
KSFT_MEM_SHARE := isolation prime lifetime stress fdinfo
KSFT_JOB       := task status cmdbuf batch submit queue fault
KSFT_SCHED     := order deps fault hang lifetime account bufcache
KSFT_AREAS := $(patsubst %,$(TESTS_B)/kselftest/vnpu_mem_%_test,$(KSFT_MEM)) \
              $(patsubst %,$(TESTS_B)/kselftest/vnpu_mem_share_%_test,$(KSFT_MEM_SHARE)) \
              $(patsubst %,$(TESTS_B)/kselftest/vnpu_job_%_test,$(KSFT_JOB)) \
              $(patsubst %,$(TESTS_B)/kselftest/vnpu_sched_%_test,$(KSFT_SCHED))

VM_TESTS   := $(TESTS_B)/kselftest/vnpu_uapi_test $(KSFT_AREAS) \
              $(TESTS_B)/kselftest/vnpu_fair_test \
              $(TESTS_B)/kselftest/vnpu_ops_test \
              $(TESTS_B)/kselftest/vnpu_mmu_race_test $(TESTS_B)/kselftest/vnpu_uring_test \
              $(TESTS_B)/kselftest/vnpu_prof_test \
              $(TESTS_B)/kselftest/vnpu_security_test \
              $(TESTS_B)/kselftest/vnpu_starve_test \
              $(TESTS_B)/kselftest/vnpu_failslab_test \
              $(TESTS_B)/kselftest/vnpu_limits_test \
              $(TESTS_B)/kselftest/vnpu_cmdbuf_update_test \
              $(TESTS_B)/kselftest/vnpu_vm_test $(TESTS_B)/kselftest/vnpu_bind_test \
              $(TESTS_B)/kselftest/vnpu_jump_test \
              $(TESTS_B)/acl/acl_init_test \
              $(TESTS_B)/acl/acl_device_test $(TESTS_B)/acl/acl_stream_test \
              $(TESTS_B)/acl/acl_memory_test $(TESTS_B)/acl/acl_callback_test \
              $(TESTS_B)/acl/acl_misc_test \
              $(patsubst %,$(TESTS_B)/acl/aclnn_%_test,$(ACLNN_FAMILIES)) \
              $(TESTS_B)/acl/acl_ipc_test $(TESTS_B)/acl/acl_graph_test \
              $(TESTS_B)/acl/acl_graph_cond_test $(TESTS_B)/acl/acl_graph_cond_sample_test \
              $(TESTS_B)/acl/acl_graph_switch_test \
              $(TESTS_B)/acl/acl_graph_update_test \
              $(TESTS_B)/acl/acl_mdl_test $(TESTS_B)/acl/acl_op_test \
              $(TESTS_B)/acl/acl_prof_tx_test $(TESTS_B)/acl/acl_prof_subscribe_test \
              $(TESTS_B)/acl/acl_aicpu_test $(TESTS_B)/acl/acl_string_test \
              $(TESTS_B)/acl/acl_submit_path_test $(TESTS_B)/acl/acl_vmm_test \
              $(TESTS_B)/acl/acl_stream_args_test \
              $(TESTS_B)/acl/acl_notify_test $(TESTS_B)/acl/acl_event_flags_test \
              $(TESTS_B)/acl/acl_query_test $(TESTS_B)/acl/acl_sync_lock_test \
              $(TESTS_B)/acl/acl_graph_sync_enter_test \
              $(TESTS_B)/acl/acl_memory_ext_test $(TESTS_B)/acl/acl_cleanup_test \
              $(TESTS_B)/acl/acl_cleanup_cxx_test $(TESTS_B)/acl/acl_cleanup_asan_test \
              $(TESTS_B)/acl/acl_models_test $(TESTS_B)/acl/acl_resnet50_test \
              $(TESTS_B)/acl/acl_alloc_test $(TESTS_B)/acl/acl_d2d_test \
              $(TESTS_B)/acl/acl_dvpp_vpc_test $(TESTS_B)/acl/acl_dvpp_codec_test \
              $(TESTS_B)/acl/acl_dvpp_vdec_test \
              $(TESTS_B)/acl/acl_dump_test
HOST_TESTS := $(TESTS_B)/unit/acl_unit_test $(TESTS_B)/unit/acl_cxx_link_test \
              $(TESTS_B)/unit/acl_helpers_test $(TESTS_B)/unit/atc_onnx_test \
              $(TESTS_B)/unit/host_bo_test $(TESTS_B)/unit/prof_tx_unit_test \
              $(TESTS_B)/unit/om_read_test $(TESTS_B)/unit/om_fuzz_test \
              $(TESTS_B)/unit/aicpu_ops_test \
              $(TESTS_B)/unit/aicpu_fail_test \
              $(TESTS_B)/unit/aicpu_string_test \
              $(TESTS_B)/unit/headers_compile $(TESTS_B)/unit/headers_compile_cxx \
              $(TESTS_B)/unit/dvpp_header_compile $(TESTS_B)/unit/dvpp_header_compile_cxx \
              $(TESTS_B)/unit/dvpp_desc_test

# aclnn indexing and reshaping (lib/nn/nn_op_index.c).
VM_TESTS += $(TESTS_B)/acl/aclnn_index_test
# aclnn weight-quantised matmul (lib/nn/nn_op_llm_wqmm*.c).
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_wqmm_test

# aclnn operators of ggml's CANN backend: gathers, repeats, windows, sorts, solves (lib/nn/nn_op_llm_index*.c).
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_index_test
# aclnn attention and RoPE (lib/nn/nn_op_llm_attn*.c).
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_attn_test

# Existing aclnn operators as wide as CANN documents them (issue 36).
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_widen_test
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_runtime_test

# CANN's cblas (lib/blas), linked as CANN programs link it: -lacl_cblas.
VM_TESTS += $(TESTS_B)/acl/acl_blas_test
$(TESTS_B)/acl/acl_blas_test: tests/acl/acl_blas_test.c $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(LIB_B) -lascendcl -lacl_cblas -lpthread -lm \
		$(TEST_RPATH)

# Helper programs the VM suites run.
TEST_TOOLS := $(TESTS_B)/kselftest/vnpu_hold $(TESTS_B)/kselftest/vnpu_load

# Host tests of the operator library: every tests/ops/*_test.c.
OPS_TESTS := $(patsubst tests/ops/%.c,$(TESTS_B)/ops/%,$(wildcard tests/ops/*_test.c))
HOST_TESTS += $(OPS_TESTS)

tests: $(VM_TESTS) $(HOST_TESTS) $(TEST_TOOLS)

$(TESTS_B)/ops/%: tests/ops/%.c $(wildcard tests/ops/*.h) tools/ops-host/vnpu_ops_engines.h $(OPS_LIB) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		-Wno-sign-compare -Itools/ops-host -Ikernel/ops -Iinclude $(LIBDRM_CFLAGS) \
		$(HARNESS) -o $@ $< $(OPS_LIB) -lm -lpthread

# VPC against OpenCV (tests/ops/op_vpc_cv_test.cpp), where libopencv-dev
# is installed: C++, so the library is reached through a C shim.
OPENCV_CFLAGS := $(shell pkg-config --cflags opencv4 2>/dev/null)
ifneq ($(OPENCV_CFLAGS),)
HOST_TESTS += $(TESTS_B)/ops/op_vpc_cv_test
$(TESTS_B)/ops/obj/vpc_cv_shim.o: tests/ops/vpc_cv_shim.c tests/ops/vpc_cv_shim.h $(OPS_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		-Itools/ops-host -Ikernel/ops -Iinclude $(LIBDRM_CFLAGS) -c $< -o $@
$(TESTS_B)/ops/op_vpc_cv_test: tests/ops/op_vpc_cv_test.cpp $(wildcard tests/ops/*.h) \
		$(TESTS_B)/ops/obj/vpc_cv_shim.o $(OPS_LIB)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror $(OPENCV_CFLAGS) -o $@ $< \
		$(TESTS_B)/ops/obj/vpc_cv_shim.o $(OPS_LIB) -lopencv_imgproc -lopencv_core
# The VPC's modes against Pillow and OpenCV from Python
# (tests/unit/vpc_reference_host_test.py runs this tool).
$(TESTS_B)/ops/vpc_resize_tool: tests/ops/vpc_resize_tool.c $(TESTS_B)/ops/obj/vpc_cv_shim.o \
		$(OPS_LIB)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Itests/ops -o $@ $< \
		$(TESTS_B)/ops/obj/vpc_cv_shim.o $(OPS_LIB) -lm
tests: $(TESTS_B)/ops/vpc_resize_tool
endif

# The operator test also links the host build of the operator library.
$(TESTS_B)/kselftest/vnpu_ops_test: tests/kselftest/vnpu_ops_test.c tests/kselftest/vnpu_test_util.h \
		$(OPS_LIB) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Itools/ops-host -Ikernel/ops -o $@ $< $(OPS_LIB) -lm

$(TESTS_B)/kselftest/%: tests/kselftest/%.c $(wildcard tests/kselftest/*.h) \
		include/uapi/drm/vnpu_accel.h $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -luring -lpthread

$(TESTS_B)/acl/%: tests/acl/%.c $(wildcard tests/acl/*.h) $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(LIB_B) -lascendcl -lpthread -lm $(TEST_RPATH)

# DVPP: the codec test makes its JPEG and PNG files with libjpeg-turbo and
# libpng; the VDEC test reads the clips made here (tests/acl/make_media.sh).
# (ACL_MEDIA, not DVPP_MEDIA: that name is the codec tests' below, and a
# recipe expands it only when it runs.)
ACL_MEDIA := $(TESTS_B)/acl/media
$(ACL_MEDIA)/.stamp: tests/acl/make_media.sh
	$(TOP)/tests/acl/make_media.sh $(ACL_MEDIA)
	touch $@
$(TESTS_B)/acl/acl_dvpp_vdec_test: $(ACL_MEDIA)/.stamp
$(TESTS_B)/acl/acl_dvpp_codec_test: tests/acl/acl_dvpp_codec_test.c $(wildcard tests/acl/*.h) \
		$(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(LIB_B) -lascendcl -lturbojpeg -lpng16 -lpthread -lm \
		$(TEST_RPATH)

# The single-op models acl_op_test loads, made by atc --singleop.
$(TESTS_B)/acl/op_models/.stamp: tests/acl/acl_op_models.json $(TOOLS_B)/atc
	rm -rf $(dir $@) && mkdir -p $(dir $@)
	$(TOOLS_B)/atc --singleop=$< --soc_version=Ascend910B --output=$(dir $@)
	touch $@
$(TESTS_B)/acl/acl_op_test: $(TESTS_B)/acl/op_models/.stamp

# The models acl_aipp_test loads: a Conv+Relu ONNX model compiled by atc
# as it is, with static AIPP and with dynamic AIPP.
AIPP_MODELS := $(TESTS_B)/acl/aipp_models
$(AIPP_MODELS)/.stamp: tests/acl/acl_aipp_model.py tests/acl/acl_aipp_static.cfg \
		tests/acl/acl_aipp_dynamic.cfg $(TOOLS_B)/atc
	rm -rf $(dir $@) && mkdir -p $(dir $@)
	$(PYTHON) tests/acl/acl_aipp_model.py $(dir $@)net.onnx
	$(TOOLS_B)/atc --model=$(dir $@)net.onnx --framework=5 --soc_version=Ascend310 \
		--output=$(dir $@)plain --log=error
	$(TOOLS_B)/atc --model=$(dir $@)net.onnx --framework=5 --soc_version=Ascend310 \
		--output=$(dir $@)static --insert_op_conf=tests/acl/acl_aipp_static.cfg --log=error
	$(TOOLS_B)/atc --model=$(dir $@)net.onnx --framework=5 --soc_version=Ascend310 \
		--output=$(dir $@)dynamic --insert_op_conf=tests/acl/acl_aipp_dynamic.cfg --log=error
	touch $@
$(TESTS_B)/acl/acl_aipp_test: $(AIPP_MODELS)/.stamp
VM_TESTS += $(TESTS_B)/acl/acl_aipp_test
tests: $(TESTS_B)/acl/acl_aipp_test

# C++ teardown from static destructors (tests/acl/acl_cleanup_cxx_test.cpp):
# once against the shared library, once with the library itself built
# with AddressSanitizer (leaks, use-after-free) and linked in statically.
$(TESTS_B)/acl/acl_cleanup_cxx_test: tests/acl/acl_cleanup_cxx_test.cpp $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -g -Wall -Wextra -Werror $(INCS) -o $@ $< \
		-L$(LIB_B) -lascendcl $(TEST_RPATH)

ASAN_FLAGS := -fsanitize=address -fno-omit-frame-pointer
ASAN_B := $(B)/asan
ASAN_OBJS := $(patsubst lib/%.c,$(ASAN_B)/obj/%.o,$(LIB_SRCS))

$(ASAN_B)/obj/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -O2,$(LIB_CFLAGS)) -O1 $(ASAN_FLAGS) -MMD -MP -c $< -o $@

-include $(ASAN_OBJS:.o=.d)
$(ASAN_B)/obj/om/om_types.o: $(OM_OPS_H)
$(ASAN_B)/obj/core/op_names.o: $(OP_NAMES_H)

$(ASAN_B)/libascendcl_asan.a: $(ASAN_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(TESTS_B)/acl/acl_cleanup_asan_test: tests/acl/acl_cleanup_cxx_test.cpp $(ASAN_B)/libascendcl_asan.a
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -g -Wall -Wextra -Werror $(ASAN_FLAGS) $(INCS) -o $@ $< \
		$(ASAN_B)/libascendcl_asan.a $(LIBDRM_LIBS) -luring -ljson-c -lpthread -lm

# The unit test calls internals, which the installed archive keeps local:
# it links the internal archive of the objects instead.
$(TESTS_B)/unit/acl_unit_test: tests/unit/acl_unit_test.c kernel/ops/vnpu_dtype.h kernel/ops/vnpu_dtypes.def \
		$(LIB_INTERNAL_A) \
		$(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -Ikernel/ops -o $@ $< $(LIB_INTERNAL_A) $(LIBDRM_LIBS) -luring -ljson-c -lpthread -lm

# Profiling sessions (lib/prof) on the driver: links the internal archive
# to read prof_rt_mask and to watch the record ring without a session.
VM_TESTS += $(TESTS_B)/acl/acl_prof_test
tests: $(TESTS_B)/acl/acl_prof_test
$(TESTS_B)/acl/acl_prof_test: tests/acl/acl_prof_test.c $(wildcard tests/acl/*.h) \
		lib/core/prof_rt.h lib/prof/prof.h $(LIB_INTERNAL_A) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -o $@ $< $(LIB_INTERNAL_A) $(LIBDRM_LIBS) -luring -ljson-c \
		$(DVPP_CODEC_LIBS) -lpthread -lm -ldl

# atc's front end, back end and passes, each test with the compiler's
# objects (not the atc program's main). Lowering calls the runtime's aclnn
# phase 1, hence the internal archive; the tests that run a compiled model
# on the host use the host build of the operator library.
ATC_TESTS := $(patsubst tests/unit/%.c,$(TESTS_B)/unit/%,$(wildcard tests/unit/atc_*_test.c))
HOST_TESTS += $(filter-out $(TESTS_B)/unit/atc_onnx_test,$(ATC_TESTS))
tests: $(ATC_TESTS)
$(ATC_TESTS): $(TESTS_B)/unit/atc_%_test: tests/unit/atc_%_test.c tests/unit/atc_test_util.h \
		tests/unit/atc_lower_fixture.h \
		tests/unit/atc_ir_builder.h tests/unit/om_host_exec.h \
		$(filter-out $(ATC_B)/atc_main.o,$(ATC_OBJS)) $(LIB_INTERNAL_A) $(OPS_LIB) \
		$(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -I$(ATC_B) -Itools/atc -Ilib/compile -Ilib/om -Ilib -Itools/ops-host -Ikernel/ops \
		-o $@ $< $(filter-out $(ATC_B)/atc_main.o,$(ATC_OBJS)) $(LIB_INTERNAL_A) \
		$(OPS_LIB) -lprotobuf-c -ljson-c $(LIBDRM_LIBS) -luring -ljson-c -lpthread -lm

# The one dtype list against every table derived from it: the operator
# library and libacl's internals (the compiler among them) in one program.
DTYPE_TEST := $(TESTS_B)/unit/dtype_test
HOST_TESTS += $(DTYPE_TEST)
tests: $(DTYPE_TEST)
$(DTYPE_TEST): tests/unit/dtype_test.c kernel/ops/vnpu_dtypes.def kernel/ops/vnpu_dtype.h \
		$(LIB_INTERNAL_A) $(OPS_LIB) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -Ilib/compile -Ilib/om -Itools/ops-host -Ikernel/ops \
		-o $@ $< $(LIB_INTERNAL_A) $(OPS_LIB) $(LIBDRM_LIBS) -luring -ljson-c -lpthread -lm

# The .om reader alone (no device, no runtime) with ASan and UBSan: its
# rule-by-rule test and the loader fuzz test.
OM_READ_SRCS := lib/om/om_read.c lib/om/om_crc.c lib/om/om_types.c lib/om/om_aipp_check.c
OM_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
$(TESTS_B)/unit/om_read_test $(TESTS_B)/unit/om_fuzz_test: $(TESTS_B)/unit/%: \
		tests/unit/%.c tests/acl/om_builder.h $(OM_READ_SRCS) lib/om/om_read.h $(OM_OPS_H) \
		lib/om/om_format.h $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(OM_SAN) -o $@ $< $(OM_READ_SRCS) -lpthread

# The host operators alone with the sanitizers.
AICPU_SRCS := $(wildcard lib/aicpu/*.c)
$(TESTS_B)/unit/aicpu_ops_test $(TESTS_B)/unit/aicpu_string_test: \
		$(TESTS_B)/unit/%: tests/unit/%.c $(AICPU_SRCS) \
		$(wildcard lib/aicpu/*.h) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(OM_SAN) -o $@ $< $(AICPU_SRCS) -lm

# The notes of failed host nodes alone, with the sanitizers.
$(TESTS_B)/unit/aicpu_fail_test: tests/unit/aicpu_fail_test.c lib/core/aicpu_fail.c \
		lib/core/rt_objects.h $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) $(OM_SAN) -o $@ $< lib/core/aicpu_fail.c -lpthread

# lib/dvpp's codec layer alone (no device, no runtime) with ASan and
# UBSan: JPEG, PNG and video tests and the codec fuzz test. The clips the
# video tests decode are made by ffmpeg (tests/dvpp/make-media.sh).
DVPP_CODEC_SRCS := $(wildcard lib/dvpp/codec_*.c)
DVPP_MEDIA := $(TESTS_B)/dvpp/media
DVPP_TESTS := $(TESTS_B)/dvpp/jpeg_test $(TESTS_B)/dvpp/png_test \
              $(TESTS_B)/dvpp/video_test $(TESTS_B)/dvpp/codec_fuzz
HOST_TESTS += $(DVPP_TESTS)
tests: $(DVPP_TESTS)
$(DVPP_TESTS): $(TESTS_B)/dvpp/%: tests/dvpp/%.c tests/dvpp/codec_test_util.h \
		$(DVPP_CODEC_SRCS) $(wildcard lib/dvpp/codec_*.h) lib/dvpp/dvpp_codec.h \
		$(DVPP_MEDIA)/.stamp $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Wno-clobbered $(OM_SAN) $(DVPP_CODEC_CFLAGS) -Ilib/dvpp \
		-DDVPP_MEDIA='"$(DVPP_MEDIA)"' -o $@ $< $(DVPP_CODEC_SRCS) \
		$(DVPP_CODEC_LIBS) -lz -lpthread -lm

$(DVPP_MEDIA)/.stamp: tests/dvpp/make-media.sh
	$(TOP)/tests/dvpp/make-media.sh $(DVPP_MEDIA)

# The public helpers, linked as a CANN program links them.
# The DVPP description objects, through the public library only.
$(TESTS_B)/unit/dvpp_desc_test: tests/unit/dvpp_desc_test.c $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(LIB_B) -lascendcl $(TEST_RPATH)

$(TESTS_B)/unit/acl_helpers_test: tests/unit/acl_helpers_test.c $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES)) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -o $@ $< -L$(LIB_B) -lascendcl -lm $(TEST_RPATH)

# Profiling calls that need no device (issue 34): subscription record
# getters, msproftx/mstx/step argument checks; internals for prof_tag_intern.
$(TESTS_B)/unit/prof_tx_unit_test: tests/unit/prof_tx_unit_test.c $(LIB_INTERNAL_A) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -o $@ $< $(LIB_INTERNAL_A) $(LIBDRM_LIBS) -luring $(JSONC_LIBS) \
		-lpthread -lm $(DVPP_CODEC_LIBS)

# The HOST buffer object helper against a fake driver and mmap: the link
# sends the internal archive's drmIoctl, mmap and munmap to the test.
$(TESTS_B)/unit/host_bo_test: tests/unit/host_bo_test.c $(LIB_INTERNAL_A) $(LINUX_SRC)/.extracted
	@mkdir -p $(dir $@)
	$(CC) $(TEST_CFLAGS) -Ilib -o $@ $< \
		-Wl,--wrap=drmIoctl -Wl,--wrap=mmap -Wl,--wrap=munmap \
		$(LIB_INTERNAL_A) $(LIBDRM_LIBS) -luring -ljson-c -lpthread -lm

$(TESTS_B)/unit/acl_cxx_link_test: tests/unit/acl_cxx_link_test.cpp $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -Wall -Wextra -Werror -Wno-deprecated-declarations $(INCS) -o $@ $< \
		-L$(LIB_B) -lascendcl -lnnopbase -lopapi $(TEST_RPATH)

$(TESTS_B)/unit/headers_compile: tests/unit/headers_compile.c $(wildcard include/acl*/*.h include/acl/*/*.h include/mstx/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -o $@ $<

$(TESTS_B)/unit/headers_compile_cxx: tests/unit/headers_compile_cxx.cpp $(wildcard include/acl*/*.h include/acl/*/*.h include/mstx/*.h)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++11 -Wall -Wextra -Werror -Iinclude -o $@ $<

# acl/ops/acl_dvpp.h as a CMake project builds it (-DENABLE_DVPP_INTERFACE)
# and as sample headers include it (the define in the source).
$(TESTS_B)/unit/dvpp_header_compile: tests/unit/dvpp_header_compile.c $(wildcard include/acl/*.h include/acl/ops/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -DENABLE_DVPP_INTERFACE -Iinclude -o $@ $<

$(TESTS_B)/unit/dvpp_header_compile_cxx: tests/unit/dvpp_header_compile_cxx.cpp $(wildcard include/acl/*.h include/acl/ops/*.h)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++11 -Wall -Wextra -Werror -Iinclude -o $@ $<

include tests/fuzz/fuzz.mk
include tests/models/models.mk
include tests/tsan/tsan.mk
include tests/conformance/conformance.mk

# ------------------------------------------------------------- running --
RESULTS := $(B)/test-results

check: all
	@rm -rf $(RESULTS)
	@$(MODEL_CHECK_STEP)
	@$(CONF_CHECK_STEP)
	@$(TOP)/tests/run-host.sh $(RESULTS)/host || true
	@$(TOP)/tests/run-vm.sh $(RESULTS) || true
	@$(TOP)/scripts/tap-summary.sh $(RESULTS)

check-host: all
	@rm -rf $(RESULTS)/host
	@$(MODEL_EXPORT_STEP)
	@$(TOP)/tests/run-host.sh $(RESULTS)/host || true
	@$(TOP)/scripts/tap-summary.sh $(RESULTS)/host

# ResNet-50 at batch 1 and 8 (fp16 input) on the module's default
# parameters, the host kept busy (a busy loop per host CPU) for the whole
# boot: the long model test that `make check` leaves out (batch 8 alone is
# minutes of emulated compute). TAP in build/test-results-bigmodel/.
BIGMODEL_RESULTS := $(B)/test-results-bigmodel
.PHONY: check-bigmodel
check-bigmodel: all $(RESNET50_OMS)
	@rm -rf $(BIGMODEL_RESULTS)
	@$(TOP)/tests/host-load.sh $(TOP)/tools/vm/vnpu-vm run --timeout 7200 -- sh -c \
		"VNPU_RESNET50_B8=1 $(TOP)/tests/run-suite.sh $(BIGMODEL_RESULTS) $(TESTS_B)/acl/acl_resnet50_test" || true
	@$(TOP)/scripts/tap-summary.sh $(BIGMODEL_RESULTS)

check-vm: all
	@rm -rf $(RESULTS)
	@$(MODEL_CHECK_STEP)
	@$(CONF_CHECK_STEP)
	@$(TOP)/tests/run-vm.sh $(RESULTS) || true
	@$(TOP)/scripts/tap-summary.sh $(RESULTS)

# ------------------------------------------------------------ benchmarks --
# `make bench` runs the host benchmarks (the operator library, natively),
# then every VM benchmark in one guest boot, and merges all figures into
# build/bench/results.json.
BENCHES := $(TESTS_B)/bench/mem_copy_bench $(TESTS_B)/bench/submit_bench \
           $(TESTS_B)/bench/acl_bench \
           $(TOP)/tests/bench/torch_latency.py $(TESTS_B)/bench/model_bench
# Host CPU cost per task or sync, io_uring against ioctls: counted in
# instructions on one vCPU (see ICOUNT_BENCH_CPU below).
ICOUNT_BENCHES := $(TESTS_B)/bench/graph_bench
# Seed 001's table from Python (issue 15): sync infer vs infer_async on 4 streams.
BENCHES += $(TOP)/tests/bench/py_runtime_bench.py
# Python's aclnn call overhead against C's (runs aclnn_call_bench itself).
BENCHES += $(TOP)/tests/bench/py_aclnn_bench.py
# Device-to-device copies and fills against memcpy/memset (issue 16).
BENCHES += $(TESTS_B)/bench/d2d_bench
# DVPP: the VPC against OpenCV, JPEGD against libjpeg-turbo, the pipeline.
BENCHES += $(TESTS_B)/bench/dvpp_bench
# What profiling costs: ResNet-18 with a session against none, and the
# eager launch cost against the runtime with profiling compiled out.
BENCHES += $(TESTS_B)/bench/prof_bench $(TOP)/tests/bench/prof_launch_bench.py
# cblas: aclblasGemmEx against OpenBLAS's cblas_sgemm in the guest.
BENCHES += $(TESTS_B)/bench/blas_bench
HOST_BENCHES := $(patsubst tests/bench/%.c,$(TESTS_B)/bench/%,$(wildcard tests/bench/ops_*.c))

tests: $(filter-out %.py,$(BENCHES)) $(ICOUNT_BENCHES) $(HOST_BENCHES)
tests: $(TESTS_B)/bench/aclnn_call_bench

$(TESTS_B)/bench/ops_%: tests/bench/ops_%.c tests/bench/bench_json.h $(OPS_LIB)
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		-Itools/ops-host -Ikernel/ops -Iinclude $(LIBDRM_CFLAGS) -Itests/bench \
		-I/usr/include/$(shell $(CC) -dumpmachine) \
		-o $@ $< $(OPS_LIB) -lopenblas -lm -lpthread

# The model benchmarks: ResNet-18 as an .om and op by op through aclnn;
# the .om format's header from lib/mdl.
$(TESTS_B)/bench/model_bench: tests/bench/model_bench.c tests/bench/resnet_aclnn.c \
		tests/bench/resnet_aclnn.h tests/bench/bench_json.h lib/om/om_format.h \
		$(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		-Wno-deprecated-declarations $(INCS) -Ilib -Itests/bench -o $@ \
		tests/bench/model_bench.c tests/bench/resnet_aclnn.c \
		-L$(LIB_B) -lascendcl -lnnopbase -lopapi -lpthread $(TEST_RPATH)

$(TESTS_B)/bench/dvpp_bench: tests/bench/dvpp_bench.cpp tests/bench/bench_json.h \
		$(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers \
		-Iinclude -Itests/bench $$(pkg-config --cflags opencv4) -o $@ $< \
		-L$(LIB_B) -lascendcl $$(pkg-config --libs opencv4) -lturbojpeg -lpthread \
		-Wl,-rpath,$(LIB_B)
tests: $(TESTS_B)/bench/dvpp_bench

# The C side of py_aclnn_bench.py links the runtime too.
$(TESTS_B)/bench/aclnn_call_bench: tests/bench/aclnn_call_bench.c $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		$(INCS) -o $@ $< -L$(LIB_B) -lascendcl -lpthread $(TEST_RPATH)

# The ACL benchmarks link the runtime (-lascendcl).
$(TESTS_B)/bench/acl_bench $(TESTS_B)/bench/graph_bench $(TESTS_B)/bench/prof_bench: $(TESTS_B)/bench/%: \
		tests/bench/%.c tests/bench/bench_json.h $(LIB_SO_REAL) \
		$(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		-Wno-deprecated-declarations $(INCS) -o $@ $< -L$(LIB_B) -lascendcl -lpthread $(TEST_RPATH)

$(TESTS_B)/bench/blas_bench: tests/bench/blas_bench.c tests/bench/bench_json.h \
		$(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		$(INCS) -I/usr/include/$(shell $(CC) -dumpmachine) -o $@ $< -L$(LIB_B) \
		-lascendcl -lacl_cblas -lopapi -lnnopbase -lopenblas -lm -lpthread \
		$(TEST_RPATH)

$(TESTS_B)/bench/d2d_bench: tests/bench/d2d_bench.c tests/bench/bench_json.h \
		$(LIB_SO_REAL) $(addprefix $(LIB_B)/,$(LIB_LINKNAMES))
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter \
		$(INCS) -o $@ $< -L$(LIB_B) -lascendcl -lpthread $(TEST_RPATH)

$(TESTS_B)/bench/%: tests/bench/%.c tests/bench/bench_json.h include/uapi/drm/vnpu_accel.h
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -D_GNU_SOURCE -O2 -g -Wall -Wextra -Werror $(INCS) -o $@ $<

# The guest's kernel debugging (slub_debug, KFENCE) is for tests; it makes
# every kernel allocation several times dearer, so benchmarks turn it off.
BENCH_KERNEL_ARGS := slub_debug=- kfence.sample_interval=0

# The guest boots with multi-threaded TCG (vnpu-vm --mttcg): its two
# vCPUs on two host threads, which the multi-stream figure needs. Every
# figure names the CPU (VNPU_BENCH_CPU; tests/bench/bench_json.h). The
# model figures take minutes of emulated inference, hence the timeout.
BENCH_CPU = host $(shell sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1) \
	($(shell nproc) threads), guest 2 vCPUs on MTTCG
# graph_bench compares the submitting threads' CPU time on two paths. It
# boots apart, with one vCPU and a clock that counts instructions
# (VNPU_VM_ICOUNT=0: 1 ns per instruction): a thread's CPU time is then
# the instructions it ran, whatever the host's load. With two vCPUs the
# counted clock also advances while the other vCPU runs, so a thread's
# time would include what ran beside it (+-15% between identical runs of
# the four-thread cases; under 1% on one vCPU).
ICOUNT_BENCH_CPU = host $(shell sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), \
	guest 1 vCPU, instruction-counted clock

# `make llm-check GGML=<checkout>`: ggml's CANN backend built unchanged
# against the install tree, test-backend-ops -b CANN0 per operator, the
# end-to-end decode and the LLM benchmark in the guest (Documentation/llm.md).
# Not in `make check`: the checkout is not a Debian package.
.PHONY: llm-check
llm-check: all
	@test -n "$(GGML)" || { echo "usage: make llm-check GGML=<ggml or llama.cpp checkout> [LLM_OPS='ADD MUL_MAT']"; exit 2; }
	@$(TOP)/tests/llm/llm-check.sh $(GGML) $(LLM_OPS)

.PHONY: bench
bench: all $(MODEL_BENCH_DEPS) lib-noprof $(TESTS_B)/bench/prof_bench
	@rm -rf $(B)/bench
	@mkdir -p $(B)/bench
	@for b in $(HOST_BENCHES); do echo "# ---- $$(basename $$b) (host)"; \
		OPENBLAS_NUM_THREADS=1 $$b $(B)/bench/$$(basename $$b).json || exit 1; done
	@VNPU_BENCH_CPU="$(BENCH_CPU)" VNPU_DVPP_BENCH_MODEL=$(MODELS_B)/resnet18_aipp.om \
		$(TOP)/tools/vm/vnpu-vm run --mttcg --timeout 2400 \
		--append "$(BENCH_KERNEL_ARGS)" -- \
		$(TOP)/tests/run-bench.sh $(B)/bench $(BENCHES)
	@VNPU_BENCH_CPU="$(ICOUNT_BENCH_CPU)" VNPU_VM_ICOUNT=0 $(TOP)/tools/vm/vnpu-vm run \
		--smp 1 --timeout 1200 --append "$(BENCH_KERNEL_ARGS)" -- \
		$(TOP)/tests/run-bench.sh $(B)/bench $(ICOUNT_BENCHES)
	@if [ -n "$(GGML)" ]; then $(TOP)/tests/llm/llm-check.sh $(GGML) --no-ops; fi
	@echo "bench: figures in $(B)/bench/results.json"

# ------------------------------------------------------------ debug kernel --
# `make check-debug`: the VM suites, the Python tests and the fuzzer under a
# kernel with KASAN, lockdep, UBSAN, kmemleak, debug objects and fault
# injection (scripts/debug-kernel.sh builds it once, cached under
# build/debug-kernel/), with vnpu.ko built against it in build/kmod-debug/.
# Not part of `make check` (time); see Documentation/testing.md.
KMOD_DEBUG := $(B)/kmod-debug
DEBUG_SEEDS ?= 1 2 3
DEBUG_FUZZ_SECONDS ?= 120

.PHONY: debug-kernel module-debug check-debug fuzz-debug
debug-kernel:
	@$(TOP)/scripts/debug-kernel.sh $(KVER) >/dev/null

module-debug: debug-kernel
	@$(TOP)/scripts/mirror-kmod.sh $(TOP) $(KMOD_DEBUG)
	@$(TOP)/scripts/kconfigure.sh $(B)/debug-kernel/current/linux $(KMOD_DEBUG)
	$(MAKE) -C $(B)/debug-kernel/current/linux M=$(KMOD_DEBUG) W=1 modules

check-debug: all module-debug
	@rm -rf $(B)/test-results-debug
	@DEBUG_SEEDS="$(DEBUG_SEEDS)" DEBUG_FUZZ_SECONDS=$(DEBUG_FUZZ_SECONDS) \
		$(TOP)/tests/run-debug.sh $(B)/test-results-debug || true
	@$(TOP)/scripts/tap-summary.sh $(B)/test-results-debug

# A long fuzz run under the debug kernel: SECONDS per seed.
fuzz-debug: all module-debug
	@mkdir -p $(B)/fuzz
	@DEBUG_SEEDS="$(DEBUG_SEEDS)" DEBUG_FUZZ_SECONDS=$(SECONDS) DEBUG_FUZZ_ONLY=1 \
		$(TOP)/tests/run-debug.sh $(B)/test-results-debug-fuzz || true
	@$(TOP)/scripts/tap-summary.sh $(B)/test-results-debug-fuzz

# aclnn operators of issue 36 (lib/nn/nn_op_llm_eltwise*.c).
VM_TESTS += $(TESTS_B)/acl/aclnn_llm_eltwise_test
# Their headers, C and C++ (both of CANN's log-softmax header names).
HOST_TESTS += $(TESTS_B)/unit/aclnn_llm_headers_compile $(TESTS_B)/unit/aclnn_llm_headers_compile_cxx
$(TESTS_B)/unit/aclnn_llm_headers_compile: tests/unit/aclnn_llm_headers_compile.c $(wildcard include/aclnnop/*.h include/aclnn/*.h)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -pedantic -Wall -Wextra -Werror -Iinclude -o $@ $<
$(TESTS_B)/unit/aclnn_llm_headers_compile_cxx: tests/unit/aclnn_llm_headers_compile_cxx.cpp $(wildcard include/aclnnop/*.h include/aclnn/*.h)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++11 -Wall -Wextra -Werror -Iinclude -o $@ $<
# (tests: expanded its lists above, before these lines)
tests: $(TESTS_B)/acl/aclnn_llm_eltwise_test \
	$(TESTS_B)/unit/aclnn_llm_headers_compile $(TESTS_B)/unit/aclnn_llm_headers_compile_cxx
