"""CPU by process while CI (or any run) goes on: every second it reads /proc/PID/stat of every process, and when
OUT.stop appears it writes to OUT the CPU each kind of process used, by part of the run (the distribution's tests, the
paper smoke, Storm's suites, a module's tests by the folder it ran in) and main class. A process that lives less than
a second is missed, and each loses up to a second of its last CPU. Every 30 s it also appends to OUT.timeline the
machine's busy cores over those 30 s (from /proc/stat) and the cores each part used. Usage: cpu-by-process.py OUT
CLONE_DIR"""
import os, time, sys
tck = os.sysconf('SC_CLK_TCK')
last = {}
def label(p, cmd):
    a = cmd.split('\0')
    exe = os.path.basename(a[0])
    try: cwd = os.readlink(f'/proc/{p}/cwd')
    except Exception: cwd = ''
    flat = ' '.join(a)
    if 'verify-bench-paper' in flat or 'verify-bench-paper' in cwd: part = 'paper'
    elif 'smoke-jdk' in flat or 'smoke-jdk' in cwd: part = 'jdk-smoke'
    elif '/distribution/target/' in flat or cwd.endswith('/distribution'): part = 'dist-IT'
    elif 'upstream-suites' in cwd: part = 'suites'
    else:
        part = cwd.replace(root + '/', '').replace(root, 'root') or '?'
    if exe != 'java':
        return part + ' [' + exe + ']'
    main = '?'
    skip = False
    for i, x in enumerate(a[1:], 1):
        if skip: skip = False; continue
        if x in ('-cp', '-classpath', '--class-path', '-jar'):
            if x == '-jar': main = os.path.basename(a[i+1]) if i+1 < len(a) else '?'; break
            skip = True; continue
        if x.startswith('-'): continue
        main = x; break
    if 'surefire' in main: main = 'surefire-fork'
    if 'plexus' in main.lower() or 'maven' in main.lower(): main = 'maven'
    return part + ' ' + main.split('.')[-1]
def machine_busy():
    f = [int(x) for x in open('/proc/stat').readline().split()[1:]]
    return (sum(f) - f[3] - f[4]) / tck  # all but idle and iowait
def by_part():
    parts = {}
    for l, c in last.values():
        parts[l.split(' ')[0]] = parts.get(l.split(' ')[0], 0) + c
    return parts
out = sys.argv[1]
root = sys.argv[2].rstrip('/')
mark, mark_busy, mark_parts = time.time(), machine_busy(), None
timeline = open(out + '.timeline', 'w')
while not os.path.exists(out + '.stop'):
    if time.time() - mark >= 30:
        now, busy, parts_now = time.time(), machine_busy(), by_part()
        used = {k: (v - mark_parts.get(k, 0)) / (now - mark) for k, v in parts_now.items()}
        timeline.write(time.strftime('%H:%M:%S') + f' busy {(busy - mark_busy) / (now - mark):.2f} cores: ' + ', '.join(
            f'{k} {v:.2f}' for k, v in sorted(used.items(), key=lambda kv: -kv[1]) if v >= 0.05) + '\n')
        timeline.flush()
        mark, mark_busy, mark_parts = now, busy, parts_now
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try:
            cmd = open(f'/proc/{p}/cmdline').read()
            if not cmd: continue
            st = open(f'/proc/{p}/stat').read().rsplit(')',1)[1].split()
            cpu = (int(st[11]) + int(st[12])) / tck
            if cpu < 0.05 and p not in last: continue
            starttime = st[19]
            key = p + ':' + starttime
            if key not in last:
                last[key] = [label(p, cmd), cpu]
            else:
                last[key][1] = cpu
        except Exception:
            pass
    if mark_parts is None:
        mark_parts = by_part()  # what the processes had used before the first scan is no part's use in the first 30 s
    time.sleep(1)
agg = {}
for k,(l,c) in last.items():
    a = agg.setdefault(l, [0, 0.0]); a[0]+=1; a[1]+=c
tot = sum(v[1] for v in agg.values())
parts = {}
for l,(n,c) in agg.items():
    parts[l.split(' ')[0]] = parts.get(l.split(' ')[0], 0) + c
with open(out,'w') as f:
    f.write(f'total cpu {tot:.0f}s\n')
    for l,c in sorted(parts.items(), key=lambda kv:-kv[1]): f.write(f'PART {c:8.1f}s {l}\n')
    for l,(n,c) in sorted(agg.items(), key=lambda kv:-kv[1][1]):
        if c >= 2: f.write(f'{c:8.1f}s {n:5d} procs  {l}\n')
