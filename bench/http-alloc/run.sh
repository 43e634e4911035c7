#!/usr/bin/env bash
# Bytes allocated on the loop thread per plain keep-alive GET (AllocProbe.java), for this checkout
# and, given BASE_DIR (another checkout, ./jasyncio build run there), for it too, interleaved:
# this, base, this, base. A change to the server's per-request path shows here exactly.
#
# usage: bench/http-alloc/run.sh [BASE_DIR]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
base="${1:-}"
./jasyncio build
java_bin="$(dirname "$(bench/java25.sh)")"
work="$root/bench/target/http-alloc"
flags=(--add-exports java.base/jdk.internal.vm=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m
       -Xms1g -Xmx1g -XX:+AlwaysPreTouch)
trees=("$root")
[ -n "$base" ] && trees+=("$(cd "$base" && pwd)")
for tree in "${trees[@]}"; do
  jar="$tree/jasyncio-lab/target/jasyncio-lab.jar"
  [ -f "$jar" ] || { echo "http-alloc: no $jar (run ./jasyncio build in $tree)" >&2; exit 1; }
  mkdir -p "$work/$(echo "$tree" | tr / _)"
  "$java_bin/javac" -cp "$jar" -d "$work/$(echo "$tree" | tr / _)" bench/http-alloc/AllocProbe.java
done
for round in 1 2; do
  for tree in "${trees[@]}"; do
    echo "== $tree (round $round)"
    "$java_bin/java" "${flags[@]}" -cp "$tree/jasyncio-lab/target/jasyncio-lab.jar:$work/$(echo "$tree" | tr / _)" AllocProbe
  done
done
