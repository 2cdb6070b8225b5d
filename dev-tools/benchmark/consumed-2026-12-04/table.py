import json, sys
from collections import defaultdict
for f in sys.argv[1:]:
    d=json.load(open(f)); g=defaultdict(list)
    for p in d['points']:
        if p['repeat'] < 1: continue
        s=p['setting']; lab='%s:%d:%d:%d:%d'%('wait' if s['progressWait'] else 'poll',s['spins'],s['yields'],s['inlineBytes'],s['consumedDelayMs'])
        g[(lab,p['offeredPerSecond'])].append(p)
    print(f)
    for (lab,rate),ps in sorted(g.items(), key=lambda x:(x[0][1],x[0][0])):
        ps=sorted(ps,key=lambda p:p['repeat'])
        print('%6d %-18s cores %s  p50 %s  p99 %s' % (rate, lab, ' '.join('%.3f'%p['progressThreadCores'] for p in ps),
              ' '.join('%d'%p['latencyP50Micros'] for p in ps), ' '.join('%d'%p['latencyP99Micros'] for p in ps)))
