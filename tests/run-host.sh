#!/bin/bash
# Host tests: no VM, no module. usage: run-host.sh OUTDIR
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
b=$top/build
exec "$top/tests/run-suite.sh" "$1" \
	"$b/tests/unit/headers_compile" \
	"$b/tests/unit/headers_compile_cxx" \
	"$b/tests/unit/dvpp_header_compile" \
	"$b/tests/unit/dvpp_header_compile_cxx" \
	"$top/tests/unit/test_dvpp_header_guard.sh" \
	"$b/tests/unit/dvpp_desc_test" \
	"$b/tests/unit/acl_unit_test" \
	"$b/tests/unit/acl_helpers_test" \
	"$b/tests/unit/dtype_test" \
	"$b/tests/unit/atc_onnx_test" \
	"$b/tests/unit/atc_ir_test" \
	"$b/tests/unit/atc_infer_test" \
	"$b/tests/unit/atc_fold_test" \
	"$b/tests/unit/atc_fuse_test" \
	"$b/tests/unit/atc_support_test" \
	"$b/tests/unit/atc_models_test" \
	"$b/tests/unit/atc_plan_test" \
	"$b/tests/unit/atc_om_write_test" \
	"$b/tests/unit/atc_lower_test" \
	"$b/tests/unit/atc_lower_ops_test" \
	"$b/tests/unit/atc_string_test" \
	"$b/tests/unit/atc_lower_index_test" \
	"$b/tests/unit/atc_infer_index_test" \
	"$b/tests/unit/atc_lower_activation_test" \
	"$b/tests/unit/atc_reduce_test" \
	"$b/tests/unit/atc_infer_reduce_test" \
	"$b/tests/unit/atc_e2e_test" \
	"$b/tests/unit/atc_values_test" \
	"$b/tests/unit/atc_arith_test" \
	"$b/tests/unit/atc_control_test" \
	"$b/tests/unit/atc_gradient_test" \
	"$b/tests/unit/atc_run_test" \
	"$b/tests/unit/host_bo_test" \
	"$b/tests/unit/prof_tx_unit_test" \
	"$b/tests/unit/om_read_test" \
	"$b/tests/unit/om_fuzz_test" \
	"$b/tests/unit/aicpu_ops_test" \
	"$b/tests/unit/aicpu_string_test" \
	"$b/tests/unit/acl_cxx_link_test" \
	"$b/tests/dvpp/jpeg_test" \
	"$b/tests/dvpp/png_test" \
	"$b/tests/dvpp/video_test" \
	"$b/tests/dvpp/codec_fuzz" \
	"$top/tests/unit/test_exports.sh" \
	"$top/tests/unit/test_check_exports.sh" \
	"$top/scripts/check-layers.sh" \
	"$top/tests/unit/test_check_layers.sh" \
	"$top/tests/unit/test_api_coverage.sh" \
	"$top/tests/unit/test_dmesg_scan.sh" \
	"$top/tests/conformance/test_compare.py" \
	"$top/tests/conformance/test_passing_list.py" \
	"$top/tests/conformance/test_runner_host.sh" \
	"$top/tests/conformance/test_strings_host.sh" \
	"$top/tests/unit/test_install.sh" \
	"$top/tests/unit/acl_python_host_test.py" \
	"$top/tests/unit/acl_media_host_test.py" \
	"$top/tests/unit/vpc_reference_host_test.py" \
	"$top/tests/unit/vnpu_runtime_host_test.py" \
	"$top/tests/unit/acl_nn_host_test.py" \
	"$top/tests/unit/test_lib_names.sh" \
	"$b"/tests/ops/*_test
