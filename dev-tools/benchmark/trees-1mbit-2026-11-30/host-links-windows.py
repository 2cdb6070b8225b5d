"""Each run's capacity window (from its feed-events.jsonl) against host-links.jsonl (hostlinks-sampler.sh, every 5 s):
what each host's link sent and received in Mbit/s between the first reading inside the window and the last.
Usage: python3 host-links-windows.py > host-links-windows.json"""
import glob
import json
import os

here = os.path.dirname(os.path.abspath(__file__))
readings = [json.loads(line) for line in open(os.path.join(here, "host-links.jsonl"))]
runs = []
for run in sorted(glob.glob(os.path.join(here, "runs", "paper-*"))):
    events = [json.loads(line) for line in open(os.path.join(run, "feed-events.jsonl"))]
    opens = [e["timeMs"] for e in events if e["phase"] == "capacity" and e["measuring"]]
    closes = [e["timeMs"] for e in events if e["phase"] == "drain"]
    inside = [r for r in readings if opens and closes and opens[0] <= r["timeMs"] <= closes[0]]
    row = {"run": os.path.basename(run), "windowSeconds": (closes[0] - opens[0]) / 1000 if opens and closes else None}
    if len(inside) >= 2:
        a, b = inside[0], inside[-1]
        seconds = (b["timeMs"] - a["timeMs"]) / 1000
        row["sampledSeconds"] = seconds
        row["hosts"] = [{"host": ha["host"], "txMbit": round((hb["txBytes"] - ha["txBytes"]) * 8e-6 / seconds, 3),
                         "rxMbit": round((hb["rxBytes"] - ha["rxBytes"]) * 8e-6 / seconds, 3)}
                        for ha, hb in zip(a["hosts"], b["hosts"]) if ha["txBytes"] is not None]
    runs.append(row)
print(json.dumps(runs, indent=1))
