#!/usr/bin/env bash
# bench-transport.sh: Storm's messaging layer worker to worker on this host, stock Netty vs Whale's RDMA transport
# (issue 6), side by side in one run. As root it runs inside a private network namespace (Netty binds every
# interface). Needs the modules installed once: mvn -B -q install -DskipTests
#
#   dev-tools/bench-transport.sh [--seconds S] [--sizes 1024,262144] [--transports netty,rdma] [--ucx-tls TLS] [--out DIR]
#
# --ucx-tls sets whale.rdma.ucx.TLS for the RDMA transport: default sm,self (UCX shared memory, as two workers
# of one host use it under `whale local-cluster`); `--ucx-tls default` leaves the choice to UCX (which moves
# RMA data over TCP loopback on this kind of host when tcp is available).
# Output: a table on stdout, DIR/storm-transport.json and DIR/storm-transport.png
# (DIR default whale-rdmachannel/target/bench).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
args=("$@")
props=("-Dbench.command=dev-tools/bench-transport.sh ${*:-}")
ucx_tls=sm,self
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) props+=("-Dbench.transport.seconds=$2"); shift 2 ;;
    --sizes) props+=("-Dbench.transport.sizes=$2"); shift 2 ;;
    --transports) props+=("-Dbench.transports=$2"); shift 2 ;;
    --ucx-tls) ucx_tls=$2; shift 2 ;;
    --out) props+=("-Dbench.out=$(cd "$(dirname "$2")" && pwd -P)/$(basename "$2")"); shift 2 ;;
    *) echo "bench-transport: unknown option '$1' (options: --seconds --sizes --transports --ucx-tls --out)" >&2; exit 2 ;;
  esac
done

# As root, the host packages the runs use (UCX for --transports rdma, iproute2), while the network is still here.
if [ "$(id -u)" = 0 ] && [ -z "${WHALE_IN_NETNS:-}" ]; then
  "$(dirname "${BASH_SOURCE[0]}")/setup-host.sh"
fi
if [ "$(id -u)" = 0 ] && [ -z "${WHALE_IN_NETNS:-}" ] && [ "${WHALE_BENCH_NETNS:-1}" != 0 ]; then
  export WHALE_IN_NETNS=1
  exec unshare --net bash -c 'ip link set lo up && exec "$0" "$@"' "${BASH_SOURCE[0]}" "${args[@]}"
fi
[ -n "${WHALE_IN_NETNS:-}" ] || echo "bench-transport: not in a private network namespace: Netty's receiver binds every interface" >&2

[ "$ucx_tls" = default ] || props+=("-Dbench.jvm.arg=-Dwhale.rdma.ucx.TLS=$ucx_tls")
cd "$repo/whale-rdmachannel"
exec mvn -B -q -o test-compile exec:exec@bench-transport "${props[@]}"
