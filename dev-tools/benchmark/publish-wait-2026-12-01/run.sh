#!/usr/bin/env bash
# Whale-WOC at P = 128 with Storm's progressive wait (as conf/storm.yaml ships it) and with PublishWait, interleaved.
cd /work/main
export WHALE_HOME=/var/tmp/ab-home
for round in 1 2; do
  for wait in org.apache.storm.policy.WaitStrategyProgressive io.whale.executor.PublishWait; do
    name=${wait##*.}-r$round
    echo "==== $name $(date -u +%H:%M:%S)"
    dev-tools/bench-paper.sh --figures 13 --systems whale-woc --matchers 128 --repeats 1 --hosts 8 --workers 8 \
      --link-mbit 2 --host-cpus 0.2 --records 200000 --set topology.acker.executors=0 \
      --set topology.bolt.wait.strategy=$wait --out /var/tmp/ab/$name
  done
done
echo "==== done $(date -u +%H:%M:%S)"
