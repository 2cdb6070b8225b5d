#!/usr/bin/env bash
# The test command: every module's tests, as `mvn -B verify` runs them, in two halves side by side, each in a
# network namespace of its own with loopback only. Storm's own integration suites (upstream-suites) are one half,
# every other module the other. In a namespace the clusters the tests start bind none of the machine's
# interfaces, and the two halves can use the same ports (LocalCluster's ZooKeeper and worker slots) at once.
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
trap 'kill "$suites_pid" 2>/dev/null || true' EXIT

set +e
(in_netns mvn -B -o verify -pl '!upstream-suites' "$@")
rest=$?
wait "$suites_pid"
suites=$?
set -e
trap - EXIT

echo
echo "verify: Storm's integration suites (upstream-suites), from $suites_log:"
grep -E '^\[(INFO|WARNING|ERROR)\] (Tests run:|Tests in error|Failures:|BUILD|Total time|.*<<< (FAIL|ERROR))' "$suites_log" \
  | grep -v ' -- in ' || true
if [ "$suites" != 0 ]; then
  echo "verify: upstream-suites failed (exit $suites); the last 200 lines of its log:"
  tail -n 200 "$suites_log"
fi
echo "verify: other modules exit $rest, upstream-suites exit $suites"
[ "$rest" = 0 ] && [ "$suites" = 0 ]
