"""The table of README.md from inline/ and read/ results.json: per system, setting and round the records/s kept up (the
offered rate of the highest paced phase that kept up; in brackets the lowest probe above it, which fell behind), the
source host's cores, the other Supervisor hosts' cores, the source's link, bytes per record, busy cores of the machine,
and per round the ratio inline/READ. Run: python3 table.py"""
import json
import os
import statistics

HERE = os.path.dirname(os.path.abspath(__file__))
rows = {}
for setting in ['inline', 'read']:
    with open(os.path.join(HERE, setting, 'results.json')) as f:
        results = json.load(f)['results']
    for r in results:
        source, cores = r['sourceHost'], r['hostCores']
        others = [c for i, c in enumerate(cores) if i not in (0, source)]
        kept = max(p['offeredPerSecond'] for p in r['search'] if p['keptUp'])
        above = min((p['offeredPerSecond'] for p in r['search'] if not p['keptUp'] and p['offeredPerSecond'] > kept),
                    default=float('nan'))
        rows[(r['system'], r['repeat'], setting)] = (kept, above, cores[source], min(others), max(others),
                                                     r['sourceLinkMbit'], r['sourceBytesPer10kRecords'] / 1e4,
                                                     r['machineCoresBusy'], r['workerLosses'])
for system in ['whale-woc-rdma', 'whale-woc-rdma-nonblock']:
    ratios = []
    for repeat in (1, 2, 3):
        for setting in ['inline', 'read']:
            kept, above, src, lo, hi, link, per_record, busy, losses = rows[(system, repeat, setting)]
            print(f"| {system} | {setting} | {repeat} | {kept:.1f} ({above:.1f}) | {src:.3f} | {lo:.3f}-{hi:.3f} | "
                  f"{link:.2f} | {per_record:,.0f} | {busy:.2f} | {losses or ''} |")
        ratios.append(rows[(system, repeat, 'inline')][0] / rows[(system, repeat, 'read')][0])
    print(f"{system}: inline/READ per round {[round(x, 2) for x in ratios]}, median {statistics.median(ratios):.2f}")
