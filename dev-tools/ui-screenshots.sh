#!/usr/bin/env bash
# The README's pictures of whale ui: runs `whale demo ridehailing` (as root, in its own network namespace), waits until
# the UI shows the topology with figures and the Whale panel with counters, and saves three screenshots taken with
# headless Chromium inside the demo's namespace: OUT/ui-cluster.png, OUT/ui-topology.png, OUT/ui-whale-panel.png
# (OUT: docs/ unless given). Needs a built home (mvn -B -q install -DskipTests) and chromium (dev-tools/setup-host.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs}")
home=$(ls -d distribution/target/whale-*/ 2>/dev/null | head -1)
[ -n "$home" ] || { echo "ui-screenshots: no Whale home under distribution/target; build first" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "ui-screenshots: needs root (the demo's network namespace)" >&2; exit 1; }
command -v chromium >/dev/null || { echo "ui-screenshots: needs chromium (dev-tools/setup-host.sh)" >&2; exit 1; }
mkdir -p "$out"
work=$(mktemp -d /tmp/whale-ui-screenshots.XXXXXX)
ui=http://127.0.0.1:16002

WHALE_DEMO_DIR=$work/cluster "$home/bin/whale" demo ridehailing --duration-s 300 --orders 1500000 --workers 4 --matchers 8 >"$work/demo.log" 2>&1 &
demo=$!
trap 'kill -INT "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true' EXIT
trap 'exit 130' INT TERM
echo "ui-screenshots: demo started (log: $work/demo.log)"

deadline=$((SECONDS + 420))
wait_for() { # what, then a command that succeeds once it is there
  local what=$1; shift
  until "$@" >/dev/null 2>&1; do
    kill -0 "$demo" 2>/dev/null || { echo "ui-screenshots: the demo ended before $what; its log:" >&2; tail -30 "$work/demo.log" >&2; exit 1; }
    [ "$SECONDS" -lt "$deadline" ] || { echo "ui-screenshots: gave up waiting for $what" >&2; exit 1; }
    sleep 2
  done
}
wait_for "the UI's pid file" test -s "$work/cluster/pids/ui.pid"
inside=(nsenter "--net=/proc/$(head -1 "$work/cluster/pids/ui.pid")/ns/net")
get() { "${inside[@]}" curl -sf --max-time 20 "$ui$1"; }
topology_id() { local doc; doc=$(get /api/v1/topology/summary) && grep -o '"id":"ridehailing[^"]*"' <<<"$doc" | head -1 | cut -d'"' -f4; }
has_topology() { [ -n "$(topology_id)" ]; }
wait_for "the ride-hailing topology" has_topology
id=$(topology_id)
# (grep reads a variable, not curl's pipe: with pipefail, grep -q ending first would fail the pipe)
has_figures() { local doc; doc=$(get "/api/v1/topology/$id?window=600") && grep -q '"emitted":[1-9]' <<<"$doc"; }
wait_for "the topology's figures over 10 minutes" has_figures
has_counters() { local doc; doc=$(get "/api/v1/whale/topology/$id") && grep -q '"frames_received":[1-9]' <<<"$doc"; }
wait_for "the Whale panel's counters" has_counters

shot() { # name, url, width, height
  "${inside[@]}" chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
    --window-size="$3,$4" --screenshot="$out/$1" "$2" 2>/dev/null
  echo "ui-screenshots: $out/$1"
}
shot ui-cluster.png "$ui/" 1000 620
shot ui-topology.png "$ui/topology.html?id=$id" 1000 1000
shot ui-whale-panel.png "$ui/whale.html?id=$id" 1000 1000
