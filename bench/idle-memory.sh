#!/usr/bin/env bash
# What an idle connection costs a server: N idle loopback connections (default 19,000) from a
# client process (bench/idle/client.py) to an echo server, on the protocol API and on streams
# (a handler waiting in read). The jasyncio server is a child JVM on a fixed heap
# (IdleConnectionMemory): the heap used after a full GC and the resident set size, each taken
# once listening and once every connection is in, divided by N. CPython asyncio and uvloop
# (bench/idle/server.py, Debian's python3 with python3-uvloop, installed if missing) give the
# resident set size the same way. Each server runs RUNS times (default 3); prints every run and
# then the medians.
#
#   bench/idle-memory.sh [N] [RUNS]
#   LOOPS="nio epoll io_uring" bench/idle-memory.sh    # the jasyncio loops to measure (default: nio)
#   PYTHON_SERVERS=0 bench/idle-memory.sh              # jasyncio only
#   HISTOGRAM=1 bench/idle-memory.sh 19000 1           # also what each connection holds, class by class
#   REBUILD=1 bench/idle-memory.sh                     # rebuild the jars first (else only when missing)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n="${1:-19000}"
runs="${2:-3}"
loops="${LOOPS:-nio}"
work="$root/bench/target/idle-memory"
mkdir -p "$work"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
java="$JAVA_HOME/bin/java"
python=/usr/bin/python3  # Debian's interpreter: Debian's python3-uvloop is installed for it

if [ "$(ulimit -n)" -lt $((n + 100)) ]; then
  ulimit -n $((n + 100)) 2>/dev/null || { echo "idle-memory: needs $((n + 100)) descriptors per process (ulimit -n is $(ulimit -n))" >&2; exit 1; }
fi

jar="$root/jasyncio-bench/target/benchmarks.jar"
# REBUILD=1: build them even if present (after a change to the sources)
if [ ! -f "$jar" ] || [ ! -d "$root/jasyncio-uring/target/classes" ] || [ "${REBUILD:-0}" = 1 ]; then
  echo "idle-memory: building the benchmarks jar and the native loops ..." >&2
  MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -B -q -pl jasyncio-bench,jasyncio-epoll,jasyncio-uring -am -DskipTests package
fi
cp="$jar"
for m in jasyncio-native jasyncio-epoll jasyncio-uring; do
  if [ -d "$root/$m/target/classes" ]; then cp="$cp:$root/$m/target/classes"; fi
done

python_servers="${PYTHON_SERVERS:-1}"
if [ "$python_servers" = 1 ] && [ -x "$python" ] && ! "$python" -c 'import uvloop' 2>/dev/null; then
  echo "idle-memory: installing python3-uvloop (apt-get install -y python3-uvloop)" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-uvloop; } >/dev/null 2>&1 || true
fi

# measure NAME COMMAND...: runs the server, connects N clients once it prints PORT, prints its RESULT line.
measure() {
  local name="$1"; shift
  local out="$work/$name.out"
  "$@" >"$out" 2>"$work/$name.err" &
  local server=$!
  local port=""
  for _ in $(seq 600); do
    port="$(sed -n 's/^PORT //p' "$out")"
    [ -n "$port" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "idle-memory: $name did not start (see $work/$name.err)" >&2
    kill "$server" 2>/dev/null || true
    return 1
  fi
  "$python" "$root/bench/idle/client.py" "$n" "$port" >"$work/$name.client" 2>&1 &
  local client=$!
  wait "$server" || true
  kill "$client" 2>/dev/null || true
  wait "$client" 2>/dev/null || true
  grep '^RESULT' "$out" | sed "s/^RESULT/RESULT server=$name/" || { echo "idle-memory: $name gave no result (see $work/$name.err)" >&2; return 1; }
}

jvm=(-Xms512m -Xmx512m --add-exports java.base/jdk.internal.vm=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED
     --enable-native-access=ALL-UNNAMED)
results="$work/results.txt"
: >"$results"
for run in $(seq "$runs"); do
  for loop in $loops; do
    for api in protocol streams; do
      histo=()
      if [ "${HISTOGRAM:-0}" = 1 ]; then histo=(-Didle.histogram="$work/histogram-$loop-$api"); fi
      measure "jasyncio-$loop-$api" "$java" "${jvm[@]}" "${histo[@]}" -Djasyncio.loop="$loop" -cp "$cp" \
        io.jasyncio.bench.IdleConnectionMemory "$n" "$api" | tee -a "$results" || true
      if [ "${HISTOGRAM:-0}" = 1 ] && [ -f "$work/histogram-$loop-$api.after" ]; then
        "$python" "$root/bench/idle/histogram_delta.py" "$work/histogram-$loop-$api" "$n"
      fi
    done
  done
  if [ "$python_servers" = 1 ] && [ -x "$python" ]; then
    for loop in asyncio uvloop; do
      if [ "$loop" = uvloop ] && ! "$python" -c 'import uvloop' 2>/dev/null; then continue; fi
      for api in protocol streams; do
        measure "$loop-$api" "$python" "$root/bench/idle/server.py" "$n" "$api" "$loop" | tee -a "$results" || true
      done
    done
  fi
done

echo "medians of $runs run(s), $n connections (KiB per connection; heap: after a full GC, -1 where not measured):"
"$python" - "$results" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    runs.setdefault(f["server"], []).append((int(f["heap_bytes_per_conn"]), int(f["rss_bytes_per_conn"])))
for server, values in runs.items():
    heap = statistics.median(v[0] for v in values)
    rss = statistics.median(v[1] for v in values)
    heap_text = f"{heap / 1024:.2f}" if heap >= 0 else "-"
    print(f"MEDIAN server={server} heap_kib_per_conn={heap_text} rss_kib_per_conn={rss / 1024:.2f} runs={len(values)}")
PY
