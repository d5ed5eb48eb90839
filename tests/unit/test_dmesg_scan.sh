#!/bin/bash
# Host unit test for tools/vm/dmesg-scan (no VM needed).
#
# - every tests/unit/dmesg/*.log except clean*.log must be flagged (exit 1)
#   and the report must contain the key line of the splat;
# - clean*.log must pass (exit 0, no output) although it contains lines that
#   a naive grep would flag;
# - single-line cases below, good and bad;
# - usage errors exit 2.
# Output is TAP; exits non-zero if any check fails.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd "$HERE/../.." && pwd -P)
SCAN=$REPO/tools/vm/dmesg-scan
SAMPLES=$HERE/dmesg

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

n=0
failed=0
ok()     { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; }

# run_scan FILE -> sets OUT and RC
run_scan() {
    RC=0
    OUT=$("$SCAN" "$1" 2>&1) || RC=$?
}

expect_flagged() { # name file expected-substring
    run_scan "$2"
    if [ "$RC" -eq 1 ] && [[ $OUT == *"$3"* ]]; then
        ok "$1: flagged"
    else
        not_ok "$1: flagged (exit $RC, wanted 1 with '$3' in the report)"
        printf '%s\n' "$OUT" | sed 's/^/# /'
    fi
}

expect_clean() { # name file
    run_scan "$2"
    if [ "$RC" -eq 0 ] && [ -z "$OUT" ]; then
        ok "$1: clean"
    else
        not_ok "$1: clean (exit $RC, wanted 0 and no output)"
        printf '%s\n' "$OUT" | sed 's/^/# /'
    fi
}

# Key line each sample log must be reported with.
declare -A KEY=(
    [warning]='WARNING: CPU: 0 PID: 1 at drivers/accel/vnpu/vnpu_gem.c:214'
    [kfence]='BUG: KFENCE: use-after-free read in vnpu_job_free'
    [soft-lockup]='watchdog: BUG: soft lockup - CPU#1 stuck for 26s!'
    [refcount]='refcount_t: underflow; use-after-free.'
    [rcu-stall]='rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:'
    [slub]='BUG kmalloc-192 (Tainted: G           OE     ): Right Redzone overwritten'
    [oops]='Oops: general protection fault'
    [hung-task]='INFO: task vnpu_test:201 blocked for more than 120 seconds.'
)

# --- sample logs
found_clean=0
for f in "$SAMPLES"/*.log; do
    name=$(basename "$f" .log)
    case "$name" in
        clean*)
            found_clean=1
            expect_clean "sample $name.log" "$f"
            ;;
        *)
            expect_flagged "sample $name.log" "$f" "${KEY[$name]:-}"
            ;;
    esac
done
if [ "$found_clean" = 1 ]; then ok "a clean sample exists"; else not_ok "a clean sample exists"; fi
for name in "${!KEY[@]}"; do
    if [ -f "$SAMPLES/$name.log" ]; then ok "sample $name.log exists"; else not_ok "sample $name.log exists"; fi
done

# The clean sample must actually be tricky: a naive grep flags it.
if grep -qE 'BUG|WARNING|Oops|KFENCE|general protection|refcount_t|soft lockup|hard LOCKUP|rcu.*stall' \
        "$SAMPLES/clean.log"; then
    ok "clean.log contains lines a naive grep would flag"
else
    not_ok "clean.log contains lines a naive grep would flag"
fi

# --- single lines
bad_lines=(
    '[   12.000001] WARNING: CPU: 0 PID: 1 at test'
    '[   12.000002] BUG: kernel NULL pointer dereference, address: 0000000000000008'
    '[   12.000003] BUG: sleeping function called from invalid context at kernel/locking/mutex.c:585'
    '[   12.000004] kernel BUG at drivers/accel/vnpu/vnpu_job.c:88!'
    '[   12.000005] Oops: 0002 [#1] PREEMPT SMP NOPTI'
    '[   12.000006] Watchdog detected hard LOCKUP on cpu 1'
    '[   12.000007] rcu: INFO: rcu_preempt self-detected stall on CPU'
    '[   12.000008] INFO: rcu_sched detected stalls on CPUs/tasks: { 1} (detected by 0, t=5252 jiffies)'
    '[   12.000009] Kernel panic - not syncing: Fatal exception'
    '[   12.000010] refcount_t: addition on 0; use-after-free.'
    '[   12.000011] list_del corruption. prev->next should be ffff888004a1c0c8, but was dead000000000100'
    '[   12.000012] WARNING: possible circular locking dependency detected'
    '[   12.000013] BUG kmalloc-64 (Not tainted): Poison overwritten'
    'WARNING: CPU: 1 PID: 7 at lib/foo.c:1 foo+0x1/0x2'
    '<4>[   12.000014] WARNING: CPU: 1 PID: 7 at lib/foo.c:1 foo+0x1/0x2'
)
good_lines=(
    '[    0.309127] kfence: initialized - using 2097152 bytes for 255 objects at 0xff2b43de3c000000-0xff2b43de3c200000'
    '[    0.362708] Spectre V2 : WARNING: Unprivileged eBPF is enabled with eIBRS on, data leaks possible via Spectre v2 BHB attacks!'
    '[    0.362709] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable to RETBleed attacks, data leaks possible!'
    '[    0.719601] NMI watchdog: Perf NMI watchdog permanently disabled'
    '[    3.311502] vnpu_test: DEBUG: job 17 retired'
    '[    3.311690] vnpu_test: CONFIG_DEBUG_BUGVERBOSE=y, BUG_ON() reports file:line'
    '[    3.311691] vnpu_test: Whoops, no Oopses and no WARNINGs'
    '[    3.311820] vnpu_test: softlockup_panic=0 hardlockup_all_cpu_backtrace=0'
    '[    3.402266] traps: a.out[412] general protection fault ip:55d0c0e01139 sp:7ffc8f0a4b70 error:0 in a.out[1139,55d0c0e00000+1000]'
    '[    3.510933] vnpu 0000:00:00.0: [drm] job 18 timed out, resetting engine'
    '[    0.000000] Kernel command line: console=ttyS0 panic=-1 slub_debug=FZPU kfence.sample_interval=10 loglevel=4'
    '[    0.175499] ** If you see this message and you are not debugging    **'
)
i=0
for line in "${bad_lines[@]}"; do
    i=$((i + 1))
    printf '%s\n' '[    1.000000] Linux version 6.12.117+deb12-amd64' "$line" >"$TMP/bad$i.log"
    expect_flagged "line '${line:0:60}'" "$TMP/bad$i.log" "$line"
done
i=0
for line in "${good_lines[@]}"; do
    i=$((i + 1))
    printf '%s\n' '[    1.000000] Linux version 6.12.117+deb12-amd64' "$line" >"$TMP/good$i.log"
    expect_clean "line '${line:0:60}'" "$TMP/good$i.log"
done

# --- usage
RC=0; "$SCAN" "$TMP/does-not-exist.log" >/dev/null 2>&1 || RC=$?
if [ "$RC" -eq 2 ]; then ok "missing file: exit 2"; else not_ok "missing file: exit 2 (got $RC)"; fi
RC=0; "$SCAN" >/dev/null 2>&1 || RC=$?
if [ "$RC" -eq 2 ]; then ok "no argument: exit 2"; else not_ok "no argument: exit 2 (got $RC)"; fi
: >"$TMP/empty.log"
expect_clean "empty log" "$TMP/empty.log"

echo "1..$n"
if [ "$failed" -eq 0 ]; then
    echo "# dmesg-scan: all $n tests passed"
    exit 0
fi
echo "# dmesg-scan: $failed of $n tests FAILED"
exit 1
