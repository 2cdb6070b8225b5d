#!/bin/bash
# Every 5 s, each emulated host's link counters (tx/rx bytes of its wlink), one JSON line per reading.
out=$1
while :; do
  t=$(date +%s%3N)
  line="{\"timeMs\":$t,\"hosts\":["
  first=1
  for ns in $(ip netns list | awk '{print $1}' | grep -- '-h[0-9]*$' | sort -t h -k2 -n); do
    h=${ns##*-h}
    tx=$(ip netns exec $ns cat /sys/class/net/wlink/statistics/tx_bytes 2>/dev/null || echo null)
    rx=$(ip netns exec $ns cat /sys/class/net/wlink/statistics/rx_bytes 2>/dev/null || echo null)
    [ $first = 1 ] || line="$line,"
    first=0
    line="$line{\"host\":$h,\"txBytes\":$tx,\"rxBytes\":$rx}"
  done
  echo "$line]}" >> "$out"
  sleep 5
done
