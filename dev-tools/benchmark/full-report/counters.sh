#!/usr/bin/env bash
# Each Whale run's relay and stall counters per worker (supervisor-N = host N) that are above zero, the last value
# each worker's console reporter printed into its worker.log. Run it after a batch and before the next one (a batch
# clears the cluster's logs). Losses are in results.json too (workerLosses); this adds the counters that are not
# losses: tuples sent beyond a stalled window, resent, duplicates dropped.
# usage: counters.sh CLUSTER_DIR   (e.g. /var/tmp/full9/cluster)
set -euo pipefail
dir=$1
names=$(ls "$dir"/logs/supervisor-*/workers-artifacts/ 2>/dev/null | grep '^paper-' \
    | sed -E 's/^paper-[a-z]+-(.*)-[0-9]+-[0-9]+$/\1/' | grep '^whale' | sort -u || true)
for t in $names; do
    echo "== $t"
    for s in $(ls -d "$dir"/logs/supervisor-* | sort -V); do
        f=$(ls -t "$s"/workers-artifacts/*"$t"-[0-9]*/*/worker.log 2>/dev/null | head -1 || true)
        [ -n "$f" ] || continue
        line=$(awk '/-(relay|woc)-[a-z-]*(lost|resent|dropped|stalled)[^ ]*$/ {name=$NF; getline; if ($0 ~ /count = /) {split($0,a,"count = "); v[name]=a[2]+0}} END {for (n in v) if (v[n]>0) {m = n; sub(/^.*\.[0-9]+-/, "", m); printf " %s %d", m, v[n]}}' "$f")
        if [ -n "$line" ]; then echo "$(basename "$s")$line"; fi
    done
done
