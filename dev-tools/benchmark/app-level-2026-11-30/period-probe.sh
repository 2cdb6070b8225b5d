#!/usr/bin/env bash
# The wake-up lateness of a process held to 0.2 core, under CFS periods of 100, 10 and 5 ms (run as root on cgroup v1,
# nothing else running; the figures in README.md). The loop works 3 ms of every 20 (0.15 core) and sleeps to the next
# 20-ms mark; a period spent early stalls it until the next one. Each group is removed after its run.
set -euo pipefail
probe=$(mktemp)
trap 'rm -f "$probe"' EXIT
cat > "$probe" <<'PY'
import time
late = []
nxt = time.perf_counter()
for _ in range(300):
    nxt += 0.02
    s = time.perf_counter()
    while time.perf_counter() - s < 0.003:
        pass
    d = nxt - time.perf_counter()
    if d > 0:
        time.sleep(d)
    late.append(time.perf_counter() - nxt)
late.sort()
print("p50 %.1f p90 %.1f p99 %.1f max %.1f ms" % (late[150] * 1e3, late[270] * 1e3, late[297] * 1e3, late[-1] * 1e3))
PY
for period in 100000 10000 5000; do
  group=/sys/fs/cgroup/cpu/whale-probe
  mkdir -p "$group"
  echo "$period" > "$group/cpu.cfs_period_us"
  echo $((period / 5)) > "$group/cpu.cfs_quota_us"
  echo -n "period $period us: "
  sh -c "echo \$\$ > $group/cgroup.procs; exec python3 $probe"
  rmdir "$group"
done
