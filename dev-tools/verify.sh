#!/usr/bin/env bash
# The test command: every module's tests, as `mvn -B verify` runs them, in two halves side by side, each in a
# network namespace of its own with loopback only. Storm's own integration suites (upstream-suites) are one half,
# every other module the other. In a namespace the clusters the tests start bind none of the machine's
# interfaces, and the two halves can use the same ports (LocalCluster's ZooKeeper and worker slots) at once.
# Beside them, a narrowed quick run of the paper benchmark (dev-tools/bench-paper.sh --quick, issue 13) is the smoke of
# the evaluation: it fails when a series of a figure is left without data, never on a figure's value. It runs on copies
# of the distribution, the stock Storm home and the benchmark's jars, so that it shares no file with the tests.
#
# First everything is built and installed with the network up and one test run, so that every plugin, test provider
# and dependency is resolved (.ci/run proves it on an empty Maven repository); the halves then run offline. Without
# root (no namespaces), or with WHALE_VERIFY_SERIAL=1, it is `mvn -B verify`. Extra arguments go to every mvn.
set -euo pipefail
cd "$(dirname "$0")/.."

# One run at a time in a clone: a second one would delete the first's copies and reports under target/. The lock is
# held by this shell and every process it starts (the halves, mvn in the serial case), so it lasts as long as they do.
mkdir -p target
exec 9>>target/verify.lock
if ! flock -n 9; then
  echo "verify: another dev-tools/verify.sh is running in this clone (pid $(cat target/verify.lock 2>/dev/null || echo unknown)," \
    "lock target/verify.lock); wait for it to end, or stop it, then run again" >&2
  exit 1
fi
echo $$ >target/verify.lock

if [ "$(id -u)" != 0 ] || [ "${WHALE_VERIFY_SERIAL:-0}" = 1 ]; then
  exec mvn -B verify "$@"
fi

# Replaces the calling (sub)shell, so a half's pid is its mvn's, and killing it stops that mvn.
in_netns() {
  exec unshare --net bash -c 'ip link set lo up && exec "$@"' in-netns "$@"
}

# Every part (the halves and the paper run) runs in the background and is stopped on every way out, a failure of this
# script's own or a signal included: the script only waits, and a signal ends a wait at once.
parts=()
stop_parts() {
  local pid
  for pid in "${parts[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${parts[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_parts EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Surefire and failsafe resolve their JUnit Platform provider (and a launcher of the tests' JUnit version) only when a
# test is about to run, so this phase runs one: a small test of a module without Storm. .ci/run proves on an empty
# Maven repository that nothing else is left for the offline halves to resolve.
echo "verify: building and installing every module (no tests yet but one, which resolves the test provider)"
mvn -B -q install -Dtest=OutDegreeBoundTest -Dit.test=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dfailsafe.failIfNoSpecifiedTests=false "$@"

suites_log=target/verify-upstream-suites.log
echo "verify: Storm's integration suites run beside the other modules; their log: $suites_log"
(in_netns mvn -B -o verify -pl upstream-suites "$@") >"$suites_log" 2>&1 &
suites_pid=$!
parts+=("$suites_pid")

paper=target/verify-bench-paper
paper_log=target/verify-bench-paper.log
rm -rf "$paper" && mkdir -p "$paper/bench"
cp -a "$(ls -d distribution/target/whale-*/ | head -1)" "$paper/whale-home"
cp -a dev-tools/stock-storm/target/apache-storm-2.8.3 "$paper/stock-home"
cp -a dev-tools/benchmark/target/whale-benchmark-*-topology.jar dev-tools/benchmark/target/lib "$paper/bench/"
# A smoke of each kind of run the harness has, one topology each (a run takes 3 to 4 minutes on the loaded cores):
# the ride-hailing round of stock Storm (on its own cluster) and of Whale's live tree over RDMA, and the tree's rate
# steps, on three hosts; every figure these feed must have data. PAPER.md ("In CI") says where the rest is tested.
# Each of its four hosts is held to a quarter of a core (--host-cpus): a capacity phase takes every core it can get,
# and the smoke's figures need none of the cores the tests beside it are waiting for.
paper_figures=13,14,17,18,21,23,24,25,26,27
echo "verify: the paper benchmark's quick run goes beside them; its log: $paper_log, its report: $paper/report/report.md"
(WHALE_HOME=$PWD/$paper/whale-home WHALE_STOCK_HOME=$PWD/$paper/stock-home WHALE_BENCH_TARGET=$PWD/$paper/bench \
  exec dev-tools/bench-paper.sh --quick --figures "$paper_figures" --systems storm,whale-woc-rdma-nonblock --hosts 3 \
  --host-cpus 0.25 --out "$PWD/$paper/report") >"$paper_log" 2>&1 &
paper_pid=$!
parts+=("$paper_pid")

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

# The other modules' tests by their plugins' goals alone: the first phase built, packaged and installed every module,
# and a `verify` would package them all again (the shaded example jars, the distribution's home) for nothing on the
# build's longest path: 41 s and 62 s of CPU on an idle machine, where the goals alone start in 5 s. Full coordinates:
# offline, Maven cannot look plugin prefixes up. (upstream-suites keeps `verify`: its modes are executions of its own.)
surefire_version=$(sed -n 's:.*<surefire.version>\(.*\)</surefire.version>.*:\1:p' pom.xml)
test_goals=("org.apache.maven.plugins:maven-surefire-plugin:$surefire_version:test"
  "org.apache.maven.plugins:maven-failsafe-plugin:$surefire_version:integration-test"
  "org.apache.maven.plugins:maven-failsafe-plugin:$surefire_version:verify")
set +e
(in_netns mvn -B -o "${test_goals[@]}" -pl '!upstream-suites' "$@") &
rest_pid=$!
parts+=("$rest_pid")
wait "$rest_pid"
rest=$?
if [ "$rest" != 0 ]; then
  # The run has failed: the other parts are stopped rather than waited for (what they did so far is in their logs).
  echo "verify: the other modules failed (exit $rest); stopping the other parts"
  stop_parts
  suites=stopped paper_exit=stopped
else
  wait "$suites_pid"
  suites=$?
  wait "$paper_pid"
  paper_exit=$?
fi
set -e
parts=()

# Surefire's and failsafe's summary of a part, from its log; on failure the end of the log and any JVM that died.
summary() { # NAME LOG EXIT MODULE
  echo
  echo "verify: $1, from $2:"
  grep -E '^\[(INFO|WARNING|ERROR)\] (Tests run:|Tests in error|Failures:|Flakes:|  Run [0-9]+:|BUILD|Total time|.*<<< (FAIL|ERROR))' "$2" \
    | grep -v ' -- in ' || true
  if [ "$3" != 0 ] && [ "$3" != stopped ]; then
    echo "verify: $1 failed (exit $3); the last 200 lines of its log:"
    tail -n 200 "$2"
    crashed_outputs "$4"
  fi
}
summary "Storm's integration suites (upstream-suites)" "$suites_log" "$suites" upstream-suites
echo
echo "verify: the paper benchmark's quick run, from $paper_log:"
grep -E '^(  capacity|  cores used|  probe at|  common at|  throughput|series without|failed run|report:)' "$paper_log" || true
if [ "$paper_exit" != 0 ] && [ "$paper_exit" != stopped ]; then
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
