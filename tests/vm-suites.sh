# The VM suites every boot of `make check` runs (tests/run-vm.sh) and
# `make check-debug` runs under the debug kernel (tests/run-debug.sh).
# Sourced with $b (build dir) and $top (repo) set.
# shellcheck shell=sh disable=SC2034
# The memory, sharing, job and scheduling suites are one binary per area;
# the scheduling ones keep the order their tests had in one file
# (tests/kselftest/vnpu_sched_test_util.h).
suites="$b/tests/kselftest/vnpu_uapi_test
	$b/tests/kselftest/vnpu_mem_bo_test $b/tests/kselftest/vnpu_mem_data_test
	$b/tests/kselftest/vnpu_mem_fault_test $b/tests/kselftest/vnpu_mem_bo_valid_test
	$b/tests/kselftest/vnpu_mem_copy_valid_test $b/tests/kselftest/vnpu_mem_capacity_test
	$b/tests/kselftest/vnpu_mem_share_isolation_test $b/tests/kselftest/vnpu_mem_share_prime_test
	$b/tests/kselftest/vnpu_mem_share_lifetime_test $b/tests/kselftest/vnpu_mem_share_stress_test
	$b/tests/kselftest/vnpu_mem_share_fdinfo_test
	$b/tests/kselftest/vnpu_job_task_test $b/tests/kselftest/vnpu_job_status_test
	$b/tests/kselftest/vnpu_job_cmdbuf_test $b/tests/kselftest/vnpu_job_batch_test
	$b/tests/kselftest/vnpu_job_submit_test $b/tests/kselftest/vnpu_job_queue_test
	$b/tests/kselftest/vnpu_job_fault_test
	$b/tests/kselftest/vnpu_sched_order_test $b/tests/kselftest/vnpu_sched_deps_test
	$b/tests/kselftest/vnpu_sched_fault_test $b/tests/kselftest/vnpu_sched_hang_test
	$b/tests/kselftest/vnpu_sched_lifetime_test $b/tests/kselftest/vnpu_sched_account_test
	$b/tests/kselftest/vnpu_sched_bufcache_test
	$top/tests/kselftest/vnpu_sched_lifetime.sh
	$b/tests/kselftest/vnpu_fair_test
	$b/tests/kselftest/vnpu_ops_test
	$b/tests/kselftest/vnpu_mmu_race_test $b/tests/kselftest/vnpu_uring_test
	$b/tests/kselftest/vnpu_prof_test $top/tests/kselftest/vnpu_smi_test.sh
	$b/tests/kselftest/vnpu_security_test
	$b/tests/kselftest/vnpu_starve_test
	$b/tests/kselftest/vnpu_limits_test
	$b/tests/kselftest/vnpu_vm_test
	$b/tests/kselftest/vnpu_bind_test
	$b/tests/kselftest/vnpu_jump_test
	$b/tests/kselftest/vnpu_cmdbuf_update_test
	$b/tests/acl/acl_init_test
	$b/tests/acl/acl_device_test $b/tests/acl/acl_stream_test $b/tests/acl/acl_memory_test
	$b/tests/acl/acl_alloc_test $b/tests/acl/acl_d2d_test
	$b/tests/acl/acl_callback_test $b/tests/acl/acl_misc_test
	$b/tests/acl/aclnn_eltwise_test $b/tests/acl/aclnn_unary_test $b/tests/acl/aclnn_cast_test $b/tests/acl/aclnn_matmul_test $b/tests/acl/aclnn_norm_test
	$b/tests/acl/aclnn_conv_test $b/tests/acl/aclnn_reduce_test $b/tests/acl/aclnn_move_test $b/tests/acl/aclnn_sort_test $b/tests/acl/aclnn_meta_test
	$b/tests/acl/aclnn_compare_test
	$b/tests/acl/aclnn_index_test
	$b/tests/acl/aclnn_llm_eltwise_test
	$b/tests/acl/aclnn_llm_index_test
	$b/tests/acl/aclnn_llm_attn_test
	$b/tests/acl/aclnn_llm_wqmm_test
	$b/tests/acl/aclnn_llm_widen_test
	$b/tests/acl/aclnn_llm_runtime_test
	$b/tests/acl/aclnn_activation_test
	$b/tests/acl/aclnn_scan_test
	$b/tests/acl/aclnn_loss_test
	$b/tests/acl/aclnn_pool_test
	$b/tests/acl/aclnn_resize_test
	$b/tests/acl/aclnn_conv3d_test $b/tests/acl/aclnn_quant_test $b/tests/acl/aclnn_promote_test
	$b/tests/acl/acl_ipc_test
	$b/tests/acl/acl_graph_test $b/tests/acl/acl_graph_update_test
	$b/tests/acl/acl_submit_path_test
	$b/tests/acl/acl_graph_cond_test $b/tests/acl/acl_graph_cond_sample_test
	$b/tests/acl/acl_graph_switch_test
	$b/tests/acl/acl_mdl_test $b/tests/acl/acl_op_test
	$b/tests/acl/acl_blas_test
	$b/tests/acl/acl_prof_tx_test $b/tests/acl/acl_prof_subscribe_test
	$b/tests/acl/acl_aipp_test
	$b/tests/acl/acl_aicpu_test
	$b/tests/acl/acl_string_test
	$b/tests/acl/acl_vmm_test $b/tests/acl/acl_stream_args_test
	$b/tests/acl/acl_notify_test $b/tests/acl/acl_event_flags_test
	$b/tests/acl/acl_query_test $b/tests/acl/acl_sync_lock_test
	$b/tests/acl/acl_prof_test
	$b/tests/acl/acl_dump_test
	$b/tests/acl/acl_graph_sync_enter_test
	$b/tests/acl/acl_dvpp_vpc_test $b/tests/acl/acl_dvpp_codec_test
	$b/tests/acl/acl_dvpp_vdec_test
	$b/tests/acl/acl_memory_ext_test $b/tests/acl/acl_cleanup_test
	$b/tests/acl/acl_cleanup_cxx_test $b/tests/acl/acl_cleanup_asan_test
	$top/tests/acl/examples_test.sh
	$top/tests/acl/msprof_vm_test.py
	$top/tests/python/run-pytest.sh
	$top/tests/kselftest/vnpu_module_test.sh"
