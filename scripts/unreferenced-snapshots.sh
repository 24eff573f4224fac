#!/usr/bin/env bash
# Fails on a committed snapshot that no test wrote in the run that made
# REFERENCES: insta appends the path of every snapshot an assertion reads
# to the file INSTA_SNAPSHOT_REFERENCES_FILE names (what `cargo insta
# test --unreferenced` reads). `make unit` sets it for the whole run, so a
# snapshot left behind by a renamed or removed test fails `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
references=${1:?usage: unreferenced-snapshots.sh REFERENCES}
[ -s "$references" ] || { echo "unreferenced-snapshots: $references is empty: no test read a snapshot" >&2; exit 1; }
committed=$(cd snapshots && ls -- *.snap | sort)
read=$(xargs -d '\n' -n1 basename <"$references" | sort -u)
left=$(comm -23 <(echo "$committed") <(echo "$read"))
if [ -n "$left" ]; then
  echo "unreferenced-snapshots: no test wrote these snapshots (renamed or removed tests leave them; delete them, or run the test that should write them):" >&2
  sed 's/^/  snapshots\//' <<<"$left" >&2
  exit 1
fi
echo "unreferenced-snapshots: every one of the $(wc -l <<<"$committed") snapshots was written by a test" >&2
