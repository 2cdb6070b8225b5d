#!/usr/bin/env python3
"""CPU of every thread of every Storm worker JVM on this machine over SECONDS, from /proc (two reads, nothing else):
python3 thread-cpu.py SECONDS OUT.json. Threads are named as the kernel keeps them (15 characters)."""
import json, os, sys, time


def workers():
    pids = []
    for pid in filter(str.isdigit, os.listdir('/proc')):
        try:
            with open(f'/proc/{pid}/cmdline', 'rb') as f:
                if b'org.apache.storm.daemon.worker.Worker' in f.read():
                    pids.append(pid)
        except OSError:
            pass
    return pids


def ticks(pids):
    out = {}
    for pid in pids:
        try:
            tids = os.listdir(f'/proc/{pid}/task')
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f'/proc/{pid}/task/{tid}/stat') as f:
                    stat = f.read()
                with open(f'/proc/{pid}/task/{tid}/comm') as f:
                    comm = f.read().strip()
            except OSError:
                continue
            fields = stat[stat.rfind(')') + 2:].split()
            out[(pid, tid)] = (comm, int(fields[11]) + int(fields[12]))
    return out


seconds = float(sys.argv[1])
pids = workers()
start, t0 = ticks(pids), time.time()
time.sleep(seconds)
end, elapsed = ticks(pids), time.time() - t0
hz = os.sysconf('SC_CLK_TCK')
cores = {}
for (pid, tid), (comm, used) in end.items():
    if (pid, tid) in start:
        per = cores.setdefault(pid, {})
        per[comm] = round(per.get(comm, 0) + (used - start[(pid, tid)][1]) / hz / elapsed, 4)
report = {'epochMillis': int(t0 * 1000), 'seconds': round(elapsed, 2),
          'workers': {pid: {'cores': round(sum(t.values()), 4),
                            'threads': dict(sorted(t.items(), key=lambda kv: -kv[1]))} for pid, t in cores.items()}}
with open(sys.argv[2], 'w') as f:
    json.dump(report, f, indent=1)
for pid, w in report['workers'].items():
    print(pid, w['cores'], list(w['threads'].items())[:6])
