# Module parameters of the guest boots that run TSan suites (sourced by
# tests/run-vm.sh; tests/tsan/tsan.mk reads the same line).
#
# TSan makes the host side 5 to 15 times slower, and its suites run many
# threads on the guest's two CPUs. With the default 5 s hang timeout a job
# of misc's eight-thread tests was now and then declared hung (TASK_TIMEOUT)
# on a loaded machine; no ACL suite tests the hang detector, so this boot
# gives jobs a minute.
TSAN_VM_PARAMS="job_timeout_ms=60000"
