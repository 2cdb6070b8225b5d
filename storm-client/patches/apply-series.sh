#!/usr/bin/env bash
# Copies unpacked upstream sources (storm-client's, or storm-server's: that module calls this script too) to a
# fresh tree and applies a patch series on it, in the order of its `series` file. A patch that does not apply cleanly stops
# the build and names itself, so an upstream bump shows at once which hook needs rework.
# Only the files whose patched text differs from the last build's are written to PATCHED_SRC_DIR:
# the others keep their time stamps, so that a second build of the same series compiles nothing.
# Usage: apply-series.sh PATCH_DIR UPSTREAM_SRC_DIR PATCHED_SRC_DIR
set -euo pipefail

patch_dir=$1 upstream=$2 patched=$3

command -v patch >/dev/null || { echo "apply-series: the 'patch' program is missing (apt-get install patch)" >&2; exit 1; }
[ -d "$upstream" ] || { echo "apply-series: upstream sources not found at $upstream" >&2; exit 1; }

fresh=$patched.fresh
rm -rf "$fresh"
mkdir -p "$fresh" "$patched"
cp -R "$upstream"/. "$fresh"/

applied=0
while IFS= read -r line || [ -n "$line" ]; do
  name=${line%%#*}
  name=$(echo "$name" | xargs)
  [ -z "$name" ] && continue
  file="$patch_dir/$name"
  [ -f "$file" ] || { echo "apply-series: patch '$name' is listed in series but $file does not exist" >&2; exit 1; }
  if ! out=$(patch -d "$fresh" -p1 --forward --batch --fuzz=0 --no-backup-if-mismatch -r - --quiet < "$file" 2>&1); then
    echo "apply-series: patch '$name' no longer applies to the upstream sources in $upstream:" >&2
    echo "$out" >&2
    exit 1
  fi
  applied=$((applied + 1))
done < "$patch_dir/series"

# The patched tree replaces the last one file by file, from one diff of the two trees (a cmp per file forked a thousand
# processes, which took minutes on loaded cores): what differs or is new is copied, what only the last one has goes.
differences=$(diff -rq "$fresh" "$patched") || [ $? -eq 1 ] || { echo "apply-series: cannot compare $fresh with $patched" >&2; exit 1; }
changed=0
while IFS= read -r line; do
  case $line in
    "") ;;
    "Files $fresh/"*)
      file=${line#"Files $fresh/"}
      file=${file%%" and $patched/"*}
      cp "$fresh/$file" "$patched/$file"
      changed=$((changed + 1)) ;;
    "Only in $fresh: "* | "Only in $fresh/"*)
      where=${line#"Only in $fresh"}
      dir=${where%%": "*} name=${where#*": "}
      mkdir -p "$patched/$dir"
      cp -R "$fresh/$dir/$name" "$patched/$dir/"
      changed=$((changed + $(find "$fresh/$dir/$name" -type f | wc -l))) ;;
    "Only in $patched: "* | "Only in $patched/"*)
      where=${line#"Only in $patched"}
      dir=${where%%": "*} name=${where#*": "}
      changed=$((changed + $(find "$patched/$dir/$name" -type f | wc -l)))
      rm -rf "${patched:?}/$dir/$name" ;;
    *) echo "apply-series: cannot read this line of diff's: $line" >&2; exit 1 ;;
  esac
done <<<"$differences"
rm -rf "$fresh"

echo "apply-series: applied $applied patch(es) from $patch_dir/series; $changed source file(s) changed since the last build"
