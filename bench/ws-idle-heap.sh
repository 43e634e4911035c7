#!/usr/bin/env bash
# What idle WebSocket connections cost jasyncio's heap (issue 37's goal: 10,000 in under 64 MiB):
# a server on the epoll loop (bench/ws/WsBench.java serve-idle: the callback form with the default
# options, keep-alive on, so a timer per connection) on a fixed, pre-touched heap, and N idle
# client connections from another JVM (WsBench idle). The server prints its heap after a full GC
# once listening and once every connection is open; the script prints each run and the medians.
#
#   bench/ws-idle-heap.sh [N] [RUNS]      (default 10000 connections, 3 runs)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n="${1:-10000}"
runs="${2:-3}"
work="$root/bench/target/ws"
mkdir -p "$work"
ulimit -n $((n + 1000)) 2>/dev/null || { echo "ws-idle-heap: needs $((n + 1000)) descriptors (ulimit -n)" >&2; exit 1; }
./jasyncio build
java="$(bench/java25.sh)"
cp="$root/jasyncio-core/target/classes:$root/jasyncio-http/target/classes:$root/jasyncio-native/target/classes:$root/jasyncio-epoll/target/classes"
"$(dirname "$java")/javac" -nowarn -d "$work/classes" -cp "$cp" bench/ws/WsBench.java
jvm=(-Xms512m -Xmx512m -XX:+AlwaysPreTouch --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
     --add-exports java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m)
results="$work/idle-heap.txt"
: >"$results"
for run in $(seq "$runs"); do
  out="$work/idle-server.out"
  : >"$out"
  "$java" "${jvm[@]}" -cp "$work/classes:$cp" WsBench serve-idle 0 "$n" >"$out" 2>&1 &
  server=$!
  port=""
  for _ in $(seq 300); do
    port="$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$out" | head -n 1)"
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "ws-idle-heap: the server did not start: $(cat "$out")" >&2; kill "$server"; exit 1; }
  "$java" "${jvm[@]}" -cp "$work/classes:$cp" WsBench idle "ws://127.0.0.1:$port/" "$n" >"$work/idle-client.out" 2>&1 &
  client=$!
  wait "$server" || true
  kill "$client" 2>/dev/null || true
  wait "$client" 2>/dev/null || true
  grep '^RESULT' "$out" | tee -a "$results"
done
/usr/bin/python3 - "$results" <<'PY'
import re, statistics, sys
rows = [dict((k, int(v)) for k, v in re.findall(r"(\w+)=(\d+)", l)) for l in open(sys.argv[1])]
after = statistics.median(r["heap_after"] for r in rows)
per = statistics.median((r["heap_after"] - r["heap_before"]) / r["connections"] for r in rows)
n = rows[0]["connections"]
print(f"MEDIAN of {len(rows)}: {n} idle connections: heap {after / 2**20:.1f} MiB after a full GC "
      f"(spread {min(r['heap_after'] for r in rows) / 2**20:.1f}-{max(r['heap_after'] for r in rows) / 2**20:.1f}), "
      f"{per / 1024:.2f} KiB per connection over the listening server's heap")
PY
