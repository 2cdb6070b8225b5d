#!/usr/bin/env python3
"""The broadcast's share of what the source host sent in each run's capacity window (issue 32, item 6).

usage: split.py OUT   (the --out folder of a dev-tools/bench-paper.sh sitting)

For every ride-hailing run of OUT/results.json: the source host's bytes per record (the harness's own figure, from the
host's link counters over the capacity window) beside the bytes of the WOC frames the source worker sent in the same
window per record, from the worker's woc-bytes-sent-to-* counters (Storm's console reporter prints them each second
into its worker.log). What is left is everything else the host sent: answers of its local matchers, acks, Kafka
requests, heartbeats.
"""
import json, re, sys, glob, datetime

out = sys.argv[1]
results = json.load(open(f"{out}/results.json"))
runs = results if isinstance(results, list) else results.get("results", [])
LINE = re.compile(r"^(\S+ \S+) c\.c\.m\.ConsoleReporter .*\[INFO\] storm\.worker\.\S+\.__system\.-1\.\d+-woc-bytes-sent-to-(\S+)$")
COUNT = re.compile(r"count = (\d+)")


def frame_bytes(log):
    """[(epoch ms, bytes of WOC frames sent so far, summed over destinations)] of one worker log."""
    per, samples, pending = {}, [], None
    for line in open(log, errors="replace"):
        m = LINE.match(line)
        if m:
            pending = (m.group(1), m.group(2))
            continue
        c = COUNT.search(line)
        if pending and c:
            stamp, to = pending
            per[to] = int(c.group(1))
            t = datetime.datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S.%f").timestamp() * 1000
            samples.append((t, sum(per.values())))
        pending = None
    return samples


def at(samples, t):
    before = [b for (s, b) in samples if s <= t]
    return before[-1] if before else 0


for run in runs:
    if run.get("app") != "ridehailing":
        continue
    name = f"paper-{run['app']}-{run['system']}-p{run['matchers']}-r{run['repeat']}"
    events = [json.loads(l) for l in open(f"{out}/runs/{name}/feed-events.jsonl")]
    window = next(w for w in reversed(events[-1]["windows"]) if w["phase"] == "CAPACITY")
    logs = [l for l in glob.glob(f"{out}/cluster*/logs/supervisor-*/workers-artifacts/{name}-[0-9]*/*/worker.log")
            if "Loading executor tasks orders" in open(l, errors="replace").read()]
    if len(logs) != 1:
        print(name, "source worker log not found:", logs)
        continue
    samples = frame_bytes(logs[0])
    if not samples:
        print(name, "printed no woc-bytes-sent-to-* counter (a run before they were printed, or WOC off)")
        continue
    records = window["committedAtEnd"] - window["committedAtStart"]
    frames = at(samples, window["endMillis"]) - at(samples, window["startMillis"])
    host_per_record = run["sourceBytesPer10kRecords"] / 10_000
    print(f"{name}: {records} records in the capacity window; source host {host_per_record:,.0f} B/record, "
          f"WOC frames {frames / records:,.0f} B/record ({frames / records / host_per_record:.0%}), "
          f"the rest {host_per_record - frames / records:,.0f} B/record")
