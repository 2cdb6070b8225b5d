#!/usr/bin/env python3
"""Every woc-window-* gauge of every worker of a paper-benchmark cluster, as Storm's console reporter printed it each
second into worker.log: python3 window-gauges.py DIR/cluster/logs OUT.json (keyed by topology id / worker port)."""
import glob, json, re, sys

out={}
for f in sorted(glob.glob(sys.argv[1]+'/supervisor-*/workers-artifacts/*/*/worker.log')):
    series={}; name=None; t=None
    for line in open(f, errors='replace'):
        m=re.search(r'^(\S+ \S+) .*-(woc-window-\S+)$', line.rstrip())
        if m: name=m.group(2); t=m.group(1); continue
        m=re.search(r'value = (-?\d+)', line)
        if m and name:
            series.setdefault(name,[]).append([t,int(m.group(1))]); name=None
    if series: out[f.split('/')[-3]+'/'+f.split('/')[-2]]=series
json.dump({"source":"worker.log console-reporter lines of the run's workers, by topology id / worker port","gauges":out}, open(sys.argv[2],'w'))
print({k: list(v) for k, v in out.items()})
