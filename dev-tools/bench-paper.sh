#!/usr/bin/env bash
# bench-paper.sh: the paper's evaluation (SC'21 §5, issue 13), scaled down to a cluster of emulated hosts on this machine,
# with the two example applications fed from Kafka: stock Apache Storm 2.8.3 and Whale in every round, one cluster up at a
# time (Storm's runs of every round first, then Whale's).
#
#   dev-tools/bench-paper.sh [--quick] [--out DIR] [--figures 13,14,...] [--matchers P,P,...] [--repeats N] [--hosts N]
#                            [--link-mbit R] [--host-cpus C] [--workers W] [--warmup-s S] [--measure-s S] [--probes N]
#                            [--p99-bound-ms B] [--records N] [--step-s S] [--set KEY=VALUE]... [--resume | --report-only]
#
# Defaults: figures 11-28, P = 8,16,32, 3 repeats, 8 hosts with 2 Mbit/s links, W = 8 (one worker per host),
# up to 3 probes in the search for each run's sustainable rate, p99 bound 1000 ms, rate steps (Figs. 23-24) of 20 s,
# MMS and WTL sweeps (Figs. 11-12) at the highest P.
# --quick: P = 8, 1 repeat, 4 hosts with 10 Mbit/s links, short phases and steps, one probe (two more if it kept up: above it, then halfway), one sweep run (WTL 10 ms),
# no binomial runs: some 15 minutes,
# every figure with data (CI's smoke). --resume: go on with an earlier run into the same --out. --report-only: draw the
# report of an earlier run into the same --out (same options) again from its results.json, running nothing. What it runs
# and measures: dev-tools/benchmark/PAPER.md.
# Needs root (network namespaces for the emulated hosts; the run itself goes into a private namespace first, after
# dev-tools/setup-host.sh has installed the host packages it uses where they are missing: UCX, iproute2).
#
# WHALE_HOME: the Whale distribution to run (default: the one built under distribution/target; point it at a copy to
# benchmark while others build). WHALE_STOCK_HOME: the stock Storm home (default: the one dev-tools/stock-storm
# assembles, built here if missing). WHALE_BENCH_TARGET: a folder with the benchmark's topology jar and lib/ (default:
# dev-tools/benchmark/target, built here if missing or older than its sources). dev-tools/verify.sh sets all three to
# copies, so that the other tests can rebuild the originals while the quick run goes on.
#
# Output (DIR default dev-tools/benchmark/target/bench-paper): report.md, report.html (figures embedded), fig11.json ...
# and fig11.png ..., results.json (every run's raw figures), runs/<run>/ (the feed's events, the reporter's lines).
# Exits 1 when a figure is left without data.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
module=$repo/dev-tools/benchmark
home=${WHALE_HOME:-$(ls -d "$repo"/distribution/target/whale-*/ 2>/dev/null | grep -v '\.tar\.gz' | head -1 || true)}
[ -n "$home" ] && [ -d "$home/lib" ] || { echo "bench-paper: no Whale distribution under distribution/target; build it: mvn -B -q install -DskipTests" >&2; exit 1; }
home=${home%/}
[ "$(id -u)" = 0 ] || { echo "bench-paper: the emulated hosts are network namespaces: run as root" >&2; exit 1; }

if [ -z "${WHALE_IN_NETNS:-}" ]; then
  # The host packages the runs use (UCX for the RDMA systems, iproute2 for the hosts), while the network is still here.
  "$repo/dev-tools/setup-host.sh"
  export WHALE_IN_NETNS=1
  exec unshare --net bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "$@"
fi

bench_target=${WHALE_BENCH_TARGET:-$module/target}
jar=$(ls "$bench_target"/whale-benchmark-*-topology.jar 2>/dev/null | head -1 || true)
if [ -z "${WHALE_BENCH_TARGET:-}" ] && { [ -z "$jar" ] || [ -n "$(find "$module/src" "$module/pom.xml" -newer "$jar" -print -quit)" ]; }; then
  echo "==> building dev-tools/benchmark"
  (cd "$module" && mvn -B -q -o package -DskipTests)
  jar=$(ls "$module"/target/whale-benchmark-*-topology.jar | head -1)
fi
[ -n "$jar" ] || { echo "bench-paper: no benchmark topology jar in $bench_target" >&2; exit 1; }

stock_home=${WHALE_STOCK_HOME:-$repo/dev-tools/stock-storm/target/apache-storm-2.8.3}
if [ -z "${WHALE_STOCK_HOME:-}" ] && { [ ! -x "$stock_home/bin/whale" ] || [ -n "$(find "$repo/dev-tools/stock-storm" "$repo/bin/whale" -newer "$stock_home/bin/whale" -type f -not -path '*/target/*' -print -quit)" ]; }; then
  echo "==> assembling the stock Apache Storm home (dev-tools/stock-storm)"
  (cd "$repo/dev-tools/stock-storm" && mvn -B -q -o package)
fi
[ -x "$stock_home/bin/whale" ] || { echo "bench-paper: no stock Storm home at $stock_home" >&2; exit 1; }

cd "$repo"
# Each bin/whale finds its own home (the stock one must not be pointed at Whale's by an inherited WHALE_HOME).
exec env -u WHALE_HOME java -Xmx256m -Djava.net.preferIPv4Stack=true \
  "-Dwhale.bin=$home/bin/whale" "-Dwhale.stock.bin=$stock_home/bin/whale" "-Dwhale.home=$home" "-Dwhale.bench.jar=$jar" \
  "-Dwhale.bench.command=dev-tools/bench-paper.sh $*" \
  "-Dlog4j.configurationFile=$home/log4j2/cluster.xml" "-Dstorm.log.dir=$module/target" -Dlogfile.name=bench-paper-driver.log \
  -cp "$home/lib/*:$bench_target/lib/*:$jar" io.whale.bench.paper.PaperBenchmark "$@"
