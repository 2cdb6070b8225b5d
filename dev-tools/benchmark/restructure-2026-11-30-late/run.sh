#!/usr/bin/env bash
# before/after side by side, interleaved, order swapped each round
set -u
cd /work/main
for R in 1 2 3 4 5 6; do
  if [ $((R % 2)) -eq 1 ]; then order="before after"; else order="after before"; fi
  for V in $order; do
    echo "=== p64 $V r$R $(date -u +%H:%M:%S)"
    WHALE_HOME=/tmp/whale-home-$V dev-tools/bench-woc.sh --workers 2 --no-ceiling --warmup-s 10 --measure-s 15 --matchers 64 \
      --systems whale-woc --repeats 1 --out /var/tmp/ba2/p64-$V-r$R > /var/tmp/ba2/p64-$V-r$R.log 2>&1
    echo "exit $?"
  done
done
for R in 1 2; do
  for V in before after; do
    echo "=== relay $V r$R $(date -u +%H:%M:%S)"
    WHALE_HOME=/tmp/whale-home-$V dev-tools/bench-woc.sh --hosts 8 --link-mbit 1 --workers 8 --matchers 16 --systems whale-woc-nonblock \
      --repeats 1 --no-ceiling --warmup-s 30 --measure-s 20 --out /var/tmp/ba2/relay-$V-r$R > /var/tmp/ba2/relay-$V-r$R.log 2>&1
    echo "exit $?"
  done
done
echo "=== over $(date -u +%H:%M:%S)"
