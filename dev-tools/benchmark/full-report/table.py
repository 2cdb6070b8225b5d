"""Per round: records/s kept up (the highest offered paced phase that kept up; in parentheses the lowest paced phase
above it that fell behind), x Storm of the same round, the source host's cores and link (Mbit/s sent) over the capacity phase,
the bytes it sent per record and the relay tuples the workers counted lost; with "sweeps", the same of each run of
Figs. 11-12 (the setting swept and its value in place of the system).

usage: python3 table.py results.json P[,P...] ridehailing|stock
       python3 table.py results.json sweeps
"""
import json
import sys

ORDER = ['storm', 'whale-woc', 'whale-woc-rdma', 'whale-woc-rdma-binomial', 'whale-woc-rdma-nonblock-d1',
         'whale-woc-rdma-nonblock-d2', 'whale-woc-rdma-nonblock']


def kept(run):
    """The harness's throughput: the rate offered to the highest paced phase that kept up, a probe or the common phase."""
    paced = run['search'] + ([run['common']] if run['common'] else [])
    ok = [p['offeredPerSecond'] for p in paced if p['keptUp']]
    fell = [p['offeredPerSecond'] for p in paced
            if not p['keptUp'] and (not ok or p['offeredPerSecond'] > max(ok))]
    return (max(ok) if ok else None), (min(fell) if fell else None)


def fmt(x, form):
    return 'none' if x is None else form % x


def cell(r, storm_rate):
    k, f = kept(r)
    src = r['sourceHost']
    return 'r%d %s (%s) x%s src %.2f link %.2f B/rec %.0f loss %d' % (
        r['repeat'], fmt(k, '%.1f'), fmt(f, '%.1f'), fmt(k / storm_rate if k and storm_rate else None, '%.2f'),
        r['hostCores'][src], r['hostTxMbit'][src], r['sourceBytesPer10kRecords'] / 1e4,
        sum((r['workerLosses'] or {}).values()))


doc = json.load(open(sys.argv[1]))
if sys.argv[2] == 'sweeps':
    for s in sorted(doc['sweeps'], key=lambda s: (s['sweep'], s['value'], s['result']['repeat'])):
        print(' ', s['sweep'], s['value'], cell(s['result'], None))
    sys.exit(0)
results, ps, app = doc['results'], [int(p) for p in sys.argv[2].split(',')], sys.argv[3]
for p in ps:
    runs = [r for r in results if r['app'] == app and r['matchers'] == p]
    print('P', p)
    for system in ORDER:
        cells = []
        for r in sorted((r for r in runs if r['system'] == system), key=lambda r: r['repeat']):
            storm = [s for s in runs if s['system'] == 'storm' and s['repeat'] == r['repeat']]
            cells.append(cell(r, kept(storm[0])[0] if storm else None))
        print(' ', system, ' | '.join(cells))
