#!/usr/bin/env bash
# The test command: every module's tests, as `mvn -B verify` runs them, in two halves side by side, each in a
# network namespace of its own with loopback only. Storm's own integration suites (upstream-suites) are one half,
# every other module the other. In a namespace the clusters the tests start bind none of the machine's
# interfaces, and the two halves can use the same ports (LocalCluster's ZooKeeper and worker slots) at once.
# Beside them, the paper benchmark's quick run (dev-tools/bench-paper.sh --quick, issue 13) is the smoke of the
# evaluation: it fails when a series of a figure is left without data, never on a figure's value. It runs on copies of
# the distribution, the stock Storm home and the benchmark's jars, which the other half rebuilds meanwhile.
#
# First everything is built and installed with the network up and no test run, so that every plugin and test
# provider is resolved; the halves then run offline. Without root (no namespaces), or with WHALE_VERIFY_SERIAL=1,
# it is `mvn -B verify`. Extra arguments go to every mvn.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" != 0 ] || [ "${WHALE_VERIFY_SERIAL:-0}" = 1 ]; then
  exec mvn -B verify "$@"
fi

# Replaces the calling (sub)shell, so a half's pid is its mvn's, and killing it stops that mvn.
in_netns() {
  exec unshare --net bash -c 'ip link set lo up && exec "$@"' in-netns "$@"
}

echo "verify: building and installing every module (no tests yet)"
mvn -B -q install -Dtest=NONE -Dit.test=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false "$@"

mkdir -p target
suites_log=target/verify-upstream-suites.log
echo "verify: Storm's integration suites run beside the other modules; their log: $suites_log"
(in_netns mvn -B -o verify -pl upstream-suites "$@") >"$suites_log" 2>&1 &
suites_pid=$!

paper=target/verify-bench-paper
paper_log=target/verify-bench-paper.log
rm -rf "$paper" && mkdir -p "$paper/bench"
cp -a "$(ls -d distribution/target/whale-*/ | head -1)" "$paper/whale-home"
cp -a dev-tools/stock-storm/target/apache-storm-2.8.3 "$paper/stock-home"
cp -a dev-tools/benchmark/target/whale-benchmark-*-topology.jar dev-tools/benchmark/target/lib "$paper/bench/"
echo "verify: the paper benchmark's quick run goes beside them; its log: $paper_log, its report: $paper/report/report.md"
(WHALE_HOME=$PWD/$paper/whale-home WHALE_STOCK_HOME=$PWD/$paper/stock-home WHALE_BENCH_TARGET=$PWD/$paper/bench \
  exec dev-tools/bench-paper.sh --quick --out "$PWD/$paper/report") >"$paper_log" 2>&1 &
paper_pid=$!
trap 'kill "$suites_pid" "$paper_pid" 2>/dev/null || true' EXIT

# A test JVM that died (System.exit, a crash) leaves its output but no report: the end of that output says why.
crashed_outputs() {
  find "$@" -path '*/target/*-reports/*-output.txt' -print0 | while IFS= read -r -d '' output; do
    class=$(basename "$output" -output.txt)
    if [ ! -e "$(dirname "$output")/TEST-$class.xml" ]; then
      echo "--- $output (no report: its JVM died), last 60 lines:"
      tail -n 60 "$output"
    fi
  done
}

set +e
(in_netns mvn -B -o verify -pl '!upstream-suites' "$@")
rest=$?
wait "$suites_pid"
suites=$?
wait "$paper_pid"
paper_exit=$?
set -e
trap - EXIT

echo
echo "verify: Storm's integration suites (upstream-suites), from $suites_log:"
grep -E '^\[(INFO|WARNING|ERROR)\] (Tests run:|Tests in error|Failures:|Flakes:|  Run [0-9]+:|BUILD|Total time|.*<<< (FAIL|ERROR))' "$suites_log" \
  | grep -v ' -- in ' || true
if [ "$suites" != 0 ]; then
  echo "verify: upstream-suites failed (exit $suites); the last 200 lines of its log:"
  tail -n 200 "$suites_log"
  crashed_outputs upstream-suites
fi
echo
echo "verify: the paper benchmark's quick run, from $paper_log:"
grep -E '^(  capacity|  probe at|  common at|  throughput|series without|failed run|report:)' "$paper_log" || true
if [ "$paper_exit" != 0 ]; then
  echo "verify: the paper benchmark's quick run failed (exit $paper_exit); the last 100 lines of its log:"
  tail -n 100 "$paper_log"
fi
if [ "$rest" != 0 ]; then
  # Last, so that they are in the end of the output that CI keeps.
  echo "verify: the other modules failed (exit $rest); the reports of their failing tests (first 60 lines of each):"
  find . -path '*/target/*-reports/*.txt' -not -path './upstream-suites/*' -print0 \
    | xargs -0 -r grep -l -E '<<< (FAILURE|ERROR)!' | head -n 3 | while read -r report; do
      echo "--- $report"
      head -n 60 "$report"
    done || true
  crashed_outputs . -not -path './upstream-suites/*'
fi
echo "verify: other modules exit $rest, upstream-suites exit $suites, paper benchmark quick run exit $paper_exit"
[ "$rest" = 0 ] && [ "$suites" = 0 ] && [ "$paper_exit" = 0 ]
