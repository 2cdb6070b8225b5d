#!/usr/bin/env bash
# Drives a local cluster through the Storm-compatible commands, the way an operator would:
# up, status, jar, list, deactivate, activate, rebalance, kill, down. Run by CliRoundTripIT inside
# a private network namespace; prints "STEP <name>" before each command so the test can follow.
# Usage: cli-roundtrip.sh WHALE_BIN CLUSTER_DIR SMOKE_JAR
set -uo pipefail
whale=$1 dir=$2 jar=$3
conf=(--config "$dir/conf/storm.yaml")

down() { echo "STEP down"; "$whale" local-cluster down --dir "$dir"; }
trap down EXIT
step() { echo "STEP $1"; shift; "$@" || { echo "FAILED: $*"; exit 1; }; }
wait_for() { # STATUS: poll `whale list` until the topology shows it, for up to a minute
  for _ in $(seq 60); do
    "$whale" "${conf[@]}" list 2>/dev/null | grep -q "cli-smoke *$1" && return 0
    sleep 1
  done
  echo "FAILED: cli-smoke never became $1"; exit 1
}

step up "$whale" local-cluster up --supervisors 2 --dir "$dir"
step status "$whale" local-cluster status --dir "$dir"
# -c before the command and among the main's arguments, as Storm's CLI takes it
step jar "$whale" "${conf[@]}" -c topology.message.timeout.secs=45 jar "$jar" io.whale.examples.smoke.SmokeTopology \
  --name cli-smoke -c whale.cli.probe=after-main-class --tuples 100 --parallelism 2 --workers 2 --report-dir "$dir/data/cli-report"
step list "$whale" "${conf[@]}" list
wait_for ACTIVE
# a worker has loaded (and logged the topology conf it was given) before the topology is changed or killed
for _ in $(seq 120); do
  grep -qs "Worker has topology config" "$dir"/logs/*/workers-artifacts/cli-smoke-*/*/worker.log && break
  sleep 1
done
step deactivate "$whale" "${conf[@]}" deactivate cli-smoke
wait_for INACTIVE
step activate "$whale" "${conf[@]}" activate cli-smoke
wait_for ACTIVE
step rebalance "$whale" "${conf[@]}" rebalance cli-smoke -w 1 -n 1
step kill "$whale" "${conf[@]}" kill cli-smoke -w 1
for _ in $(seq 60); do
  "$whale" "${conf[@]}" list 2>/dev/null | grep -q "cli-smoke" || break
  sleep 1
done
step list-after-kill "$whale" "${conf[@]}" list
echo "ROUNDTRIP DONE"
