#!/usr/bin/env bash
# bench-pinned.sh: dev-tools/bench-paper.sh as of one commit, on that commit's build, so that a report run in parts over
# several sittings (--resume) measures one build throughout while the checkout moves on.
#
#   dev-tools/bench-pinned.sh COMMIT [bench-paper.sh's options]
#
# The first call for COMMIT exports it (git archive) to ${WHALE_PIN_DIR:-/var/tmp/whale-pin}/COMMIT/src and builds it
# there with a Maven repository of its own (seeded from ~/.m2 without Whale's artifacts, so those of the checkout are
# neither read nor overwritten): the distribution, the stock Storm home and the benchmark. Later calls reuse the build.
# Then that export's bench-paper.sh runs with WHALE_HOME, WHALE_STOCK_HOME and WHALE_BENCH_TARGET pointing at it.
# Nothing else may build or run while it measures.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: dev-tools/bench-pinned.sh COMMIT [bench-paper.sh options]" >&2; exit 2; }
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
commit=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") || { echo "bench-pinned: no commit $1 in $repo" >&2; exit 2; }
shift
previous=
for arg in "$@"; do
  # the harness runs from the export, where a relative folder would land
  if [ "$previous" = --out ] && [ "${arg#/}" = "$arg" ]; then
    echo "bench-pinned: --out must be an absolute path, not $arg" >&2; exit 2
  fi
  previous=$arg
done
pin=${WHALE_PIN_DIR:-/var/tmp/whale-pin}/$commit
src=$pin/src
m2=$pin/m2

if [ ! -f "$pin/built" ]; then
  "$repo/dev-tools/setup-host.sh"
  echo "==> building $commit in $src (Maven repository $m2)"
  rm -rf "$src" && mkdir -p "$src" "$m2"
  git -C "$repo" archive "$commit" | tar -x -C "$src"
  if [ -d "$HOME/.m2/repository" ] && [ ! -d "$m2/repository" ]; then
    cp -a "$HOME/.m2/repository" "$m2/repository"
    rm -rf "$m2/repository/io/whale"
  fi
  maven=(mvn -B -q "-Dmaven.repo.local=$m2/repository")
  (cd "$src" && "${maven[@]}" install -DskipTests)
  (cd "$src/dev-tools/stock-storm" && "${maven[@]}" package)
  (cd "$src/dev-tools/benchmark" && "${maven[@]}" package -DskipTests)
  echo "$commit" > "$pin/built"
fi

home=$(ls -d "$src"/distribution/target/whale-*/ | grep -v '\.tar\.gz' | head -1)
export WHALE_HOME=${home%/}
export WHALE_STOCK_HOME=$src/dev-tools/stock-storm/target/apache-storm-2.8.3
export WHALE_BENCH_TARGET=$src/dev-tools/benchmark/target
exec "$src/dev-tools/bench-paper.sh" "$@"
