#!/usr/bin/env bash
# smoke-jdk.sh: the built distribution on other Java runtimes. For each JDK, `whale demo smoke` with JAVA_HOME set to
# it, worker-oriented communication on (conf/storm.yaml's default), over Storm's Netty transport and, side by side, over
# the RDMA transport (UCX): every task must get every tuple, and the Supervisor must have launched the workers with
# that JDK's java.
#
#   dev-tools/smoke-jdk.sh [JDK_HOME ...]
#
# Without arguments: every JDK of release 21 or newer under /usr/lib/jvm (the build itself stays on 17); none is an
# error. Needs the distribution under distribution/target (mvn -B -q install -DskipTests). As root each demo runs in a
# private network namespace, as `whale demo` does. Runs and logs: target/smoke-jdk/<jdk>-<transport>/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# The feature release of a JDK home, from its release file (JAVA_VERSION="25.0.3" -> 25); empty if it has none.
release_of() {
  sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true
}

jdks=("$@")
if [ ${#jdks[@]} -eq 0 ]; then
  for home in /usr/lib/jvm/*/; do
    home=${home%/}
    [ -L "$home" ] && continue
    release=$(release_of "$home")
    [ -n "$release" ] && [ "$release" -ge 21 ] && [ -x "$home/bin/java" ] && jdks+=("$home")
  done
  [ ${#jdks[@]} -gt 0 ] || { echo "smoke-jdk: no JDK of release 21 or newer under /usr/lib/jvm; name one: dev-tools/smoke-jdk.sh /path/to/jdk" >&2; exit 1; }
fi

failed=0
# What a worker logs when its messaging is the transport asked for.
declare -A plugin=([netty]=org.apache.storm.messaging.netty.Context [rdma]=io.whale.rdma.storm.RdmaContext)

# The two demos of a JDK run side by side, each in its own folder and network namespace: the second costs no wait.
# Leaving early (a signal) stops them: timeout passes the TERM on to its demo, which brings its cluster down.
declare -A pid=() dir=()
trap 'for p in "${pid[@]}"; do kill "$p" 2>/dev/null || true; done; wait' EXIT
for jdk in "${jdks[@]}"; do
  [ -x "$jdk/bin/java" ] || { echo "smoke-jdk: $jdk has no bin/java" >&2; exit 1; }
  pid=() dir=()
  start=$(date +%s)
  for transport in netty rdma; do
    dir[$transport]=$repo/target/smoke-jdk/$(basename "$jdk")-$transport
    rm -rf "${dir[$transport]}" && mkdir -p "${dir[$transport]}"
    echo "smoke-jdk: $(basename "$jdk") (release $(release_of "$jdk")), whale.transport=$transport: whale demo smoke; log ${dir[$transport]}/demo.log"
    JAVA_HOME=$jdk WHALE_DEMO_DIR=${dir[$transport]} timeout 600 "$repo/bin/whale" -c whale.transport=$transport demo smoke \
      --tuples 1000 --parallelism 4 --workers 2 >"${dir[$transport]}/demo.log" 2>&1 &
    pid[$transport]=$!
  done
  for transport in netty rdma; do
    d=${dir[$transport]}
    set +e
    wait "${pid[$transport]}"
    exit_code=$?
    set -e
    launched=$(grep -rhoE "Launching worker with command: '[^']*'" "$d/logs" 2>/dev/null | sort -u | sed "s/.*: '//; s/'$//" || true)
    if [ "$exit_code" = 0 ] && grep -q "^RESULT: PASS" "$d/demo.log" && [ "$launched" = "$jdk/bin/java" ] \
        && grep -rqF "Storm peer transport plugin:${plugin[$transport]}" "$d/logs" \
        && grep -rqF "Worker-oriented communication (whale.woc.enabled): on" "$d/logs"; then
      echo "smoke-jdk:   $transport pass in $(( $(date +%s) - start )) s: $(grep '^RESULT' "$d/demo.log")"
    else
      echo "smoke-jdk:   $transport FAILED (exit $exit_code; workers launched with: ${launched:-none}; their transport and WOC lines are" \
        "in $d/logs); the last 40 lines of $d/demo.log:"
      tail -n 40 "$d/demo.log"
      failed=1
    fi
  done
done
exit $failed
