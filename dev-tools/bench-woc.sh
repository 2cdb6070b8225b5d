#!/usr/bin/env bash
# bench-woc.sh: the all-grouping benchmark of worker-oriented communication (issue 3) on the real local
# multi-process cluster. Builds the benchmark module if needed, then runs its driver; as root, inside a
# private network namespace so that loopback carries only the cluster's traffic (its byte counter is the
# wire-bytes figure).
#
#   dev-tools/bench-woc.sh [--quick] [--out DIR] [--matchers 4,8,16] [--workers 2,4] [--transports netty,rdma]
#                          [--systems storm,whale-nowoc,whale-woc,...: --help lists them] [--waits default,park100,level2-0,level2-0-sleep4] [--tuned]
#                          [--rate TUPLES_PER_S | --find-sustainable P99_MS [--probes N] | --rate-steps R1:S1,...] [--repeats N] [--no-ceiling]
#                          [--set KEY=VALUE]... [--hosts N [--link-mbit R]] [--warmup-s S] [--measure-s S] [--acking PENDING]
#
# --transports: messaging transports (whale.transport) to compare, each with WOC off and on for every P and W, every
# other setting identical (default netty; the one-worker ceiling runs once per P, over the first one). rdma runs
# over UCX (libucx0: dev-tools/setup-host.sh); on one host UCX uses shared memory, which loopback bytes do not see.
#
# --systems storm runs stock Apache Storm 2.8.3 (upstream jars from Maven Central, assembled by dev-tools/stock-storm
# into dev-tools/stock-storm/target/apache-storm-2.8.3; built here if missing) on a second local cluster.
# whale-woc-nowindow is WOC on with whale.woc.window.tuples=0, to show what the frame window does side by side;
# whale-woc-fixedwindow and whale-woc-nonblock-fixedwindow keep the window at whale.woc.window.tuples (whale.woc.window.delay.ms=0),
# not sized to the path, to show what the sizing does;
# whale-woc-binomial and whale-woc-nonblock-d2 send WOC frames along a relay tree (whale.multicast.structure;
# nonblocking with d* = 2); whale-woc-nonblock along a nonblocking tree the controller reshapes live (d* auto);
# the whale-woc-rdma* systems do the same over the RDMA transport.
# --acking PENDING: at-least-once, one acker per worker and topology.max.spout.pending PENDING (the spout emits with
# message ids, the matchers ack); whale-woc-plainacks is WOC on with every ack sent on its own (whale.woc.ack.combine=false),
# whale-woc-delayacks with acks combined within whale.woc.ack.combine.delay.ms only (whale.woc.ack.combine.wait.ms=0),
# whale-woc-atmostonce WOC on without acking in the same run, to show what ack combining and at-least-once cost side by side.
#
# WHALE_HOME: the Whale distribution to run (default: the one built under distribution/target, which a build of the
# distribution module deletes and re-creates; point WHALE_HOME at a copy to benchmark while others build).
#
# --rate-steps: the spout's offered rate in steps over time; throughput and latency sampled over time, the tree's
# switches and waterline crossings from the spout worker's log, the machine's CPU and the spout host's link (rate-step-*.png).
#
# Each point also records the machine's busy cores and what the spout's host's link sent (utilisation.png): which bound it.
#
# Output: a table on stdout, DIR/results.json and DIR/*.png (DIR default dev-tools/benchmark/target/bench-woc).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
module=$repo/dev-tools/benchmark
home=${WHALE_HOME:-$(ls -d "$repo"/distribution/target/whale-*/ 2>/dev/null | grep -v '\.tar\.gz' | head -1 || true)}
[ -n "$home" ] && [ -d "$home/lib" ] || { echo "bench-woc: no Whale distribution under distribution/target; build it: mvn -B -q install -DskipTests" >&2; exit 1; }
home=${home%/}

# As root, the host packages the runs use (UCX for --transports rdma, iproute2), while the network is still here.
if [ "$(id -u)" = 0 ] && [ -z "${WHALE_IN_NETNS:-}" ]; then
  "$(dirname "${BASH_SOURCE[0]}")/setup-host.sh"
fi
if [ "$(id -u)" = 0 ] && [ -z "${WHALE_IN_NETNS:-}" ] && [ "${WHALE_BENCH_NETNS:-1}" != 0 ]; then
  export WHALE_IN_NETNS=1
  exec unshare --net bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi
[ -n "${WHALE_IN_NETNS:-}" ] || echo "bench-woc: not in a private network namespace: wire bytes include this host's other loopback traffic" >&2

jar=$(ls "$module"/target/whale-benchmark-*-topology.jar 2>/dev/null | head -1 || true)
if [ -z "$jar" ] || [ -n "$(find "$module/src" "$module/pom.xml" -newer "$jar" -print -quit)" ]; then
  echo "==> building dev-tools/benchmark"
  (cd "$module" && mvn -B -q -o package -DskipTests)
  jar=$(ls "$module"/target/whale-benchmark-*-topology.jar | head -1)
fi

stock_props=()
if [[ " $* " == *" --systems "*stock* ]]; then
  stock_home=$repo/dev-tools/stock-storm/target/apache-storm-2.8.3
  if [ ! -x "$stock_home/bin/whale" ] || [ -n "$(find "$repo/dev-tools/stock-storm" "$repo/bin/whale" -newer "$stock_home/bin/whale" -type f -not -path '*/target/*' -print -quit)" ]; then
    echo "==> assembling the stock Apache Storm home (dev-tools/stock-storm)"
    (cd "$repo/dev-tools/stock-storm" && mvn -B -q -o package)
  fi
  stock_props=("-Dwhale.stock.bin=$stock_home/bin/whale")
fi

cd "$repo"
# Each bin/whale finds its own home (the stock one must not be pointed at Whale's by an inherited WHALE_HOME).
exec env -u WHALE_HOME java -Xmx256m -Djava.net.preferIPv4Stack=true \
  "-Dwhale.bin=$home/bin/whale" "${stock_props[@]}" "-Dwhale.bench.jar=$jar" "-Dwhale.bench.command=dev-tools/bench-woc.sh $*" \
  "-Dlog4j.configurationFile=$home/log4j2/cluster.xml" "-Dstorm.log.dir=$module/target" -Dlogfile.name=bench-driver.log \
  -cp "$home/lib/*:$module/target/lib/*:$jar" io.whale.bench.WocBenchmark "$@"
