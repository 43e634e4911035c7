#!/usr/bin/env bash
# The WebSocket comparison (issue 37), in one run, on this machine: an echo of small text messages
# over 100 connections (each with one message in flight) and a broadcast to 10,000 idle
# connections, served by
#   jasyncio (./jasyncio http-server's /ws echo, in the callback form, on the epoll loop; the
#   broadcast server in bench/ws/WsBench.java), Netty 4.2 codec-http's WebSocket handlers on native
#   epoll (NettyWsServer in the benchmarks jar), Node's ws (bench/ws/node_ws_server.js) and Python's
#   websockets on uvloop (bench/ws/python_ws_server.py; on asyncio when uvloop cannot be installed),
#   each on ONE thread, pinned to CPU 0. The load (bench/ws/WsBench.java: jasyncio's client on the
#   epoll loop, the same for every server, no compression) is pinned to CPU 1.
# The judged figure is the server's CPU time per message (utime+stime from /proc over the measured
# window: per echoed message, per delivered broadcast message), with the throughput beside it.
# Every round runs every server in an order rotated from round to round; each server is started
# for each measurement, and the echo is warmed up (not counted) before it is measured. The report
# gives the median of the rounds with the spread (lowest-highest), and the ratio to jasyncio.
#
# Writes the WebSocket section of docs/BENCHMARKS.md (between its ws-results markers); raw results
# in bench/target/ws/results.tsv.
#
# usage: bench/ws-compare.sh [--rounds R] [--duration S] [--warmup S] [--connections N] [--size BYTES]
#                            [--broadcast-connections N] [--broadcast-messages M] [--servers "NAME ..."]
#                            [--doc FILE.md]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rounds=3
duration=10
warmup=3
connections=100
size=32
bconnections=10000
bmessages=20
servers="jasyncio netty-ws node-ws python-websockets"
doc="$root/docs/BENCHMARKS.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --broadcast-connections) bconnections="$2"; shift 2 ;;
    --broadcast-messages) bmessages="$2"; shift 2 ;;
    --servers) servers="$2"; shift 2 ;;
    --doc) doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "ws-compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work="$root/bench/target/ws"
mkdir -p "$work"
python=/usr/bin/python3   # Debian's interpreter, with Debian's python3-websockets and python3-uvloop
tool=ws-compare.sh
install=1
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install

ulimit -n $((bconnections + 1000)) 2>/dev/null || { say "needs $((bconnections + 1000)) descriptors (ulimit -n)"; exit 1; }
command -v taskset >/dev/null || apt_install util-linux || true
command -v node >/dev/null || apt_install nodejs || true
command -v npm >/dev/null || apt_install npm || true
"$python" -c 'import websockets' 2>/dev/null || apt_install python3-websockets || true
"$python" -c 'import uvloop' 2>/dev/null || apt_install python3-uvloop || true
node_dir="$root/jasyncio-http/src/test/node"   # ws, as the interop tests install it
[ -d "$node_dir/node_modules/ws" ] || (cd "$node_dir" && npm install --no-audit --no-fund --silent)
python_loop=asyncio
"$python" -c 'import uvloop' 2>/dev/null && python_loop=uvloop

say "building jasyncio (the CLI and the benchmarks jar, which holds the Netty server)"
./jasyncio build
[ -f "$root/jasyncio-bench/target/benchmarks.jar" ] && [ -z "$(find jasyncio-bench/src -newer jasyncio-bench/target/benchmarks.jar -name '*.java' | head -n 1)" ] \
  || mvn -B -q -pl jasyncio-bench -am -DskipTests package
java="$(bench/java25.sh)"
javac="$(dirname "$java")/javac"
cp="$root/jasyncio-core/target/classes:$root/jasyncio-http/target/classes:$root/jasyncio-native/target/classes:$root/jasyncio-epoll/target/classes"
"$javac" -nowarn -d "$work/classes" -cp "$cp" bench/ws/WsBench.java
jvm=(-Xms512m -Xmx512m -XX:+AlwaysPreTouch --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
     --add-exports java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m)
load=(taskset -c 1 "$java" "${jvm[@]}" -cp "$work/classes:$cp" WsBench)

# server_cmd NAME KIND: the command of server NAME for KIND (echo or broadcast)
server_cmd() {
  case "$1/$2" in
    jasyncio/echo) echo "$root/jasyncio http-server --host 127.0.0.1 --port 0 --loop epoll" ;;
    jasyncio/broadcast) echo "$java ${jvm[*]} -cp $work/classes:$cp WsBench serve-broadcast 0" ;;
    netty-ws/*) echo "$java ${jvm[*]} -cp $root/jasyncio-bench/target/benchmarks.jar io.jasyncio.bench.NettyWsServer --host 127.0.0.1 --port 0 --transport epoll" ;;
    node-ws/*) echo "node $root/bench/ws/node_ws_server.js $node_dir 0" ;;
    python-websockets/*) echo "$python $root/bench/ws/python_ws_server.py $python_loop" ;;
    *) say "unknown server $1"; exit 2 ;;
  esac
}

# start NAME KIND: starts the server pinned to CPU 0; sets server_pid and server_port
start() {
  local out="$work/$1-$2.out"
  : >"$out"   # before the background job opens it: the loop below reads it at once
  # shellcheck disable=SC2046
  taskset -c 0 $(server_cmd "$1" "$2") >"$out" 2>&1 &
  server_pid=$!
  server_port=""
  for _ in $(seq 300); do
    server_port="$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$out" | head -n 1)"
    [ -n "$server_port" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  say "$1 ($2) did not start: $(cat "$out")"; exit 1
}

stop() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}

results="$work/results.tsv"
: >"$results"
read -r -a names <<<"$servers"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  n=${#names[@]}
  for i in $(seq 0 $((n - 1))); do
    name="${names[$(((i + round - 1) % n))]}"
    start "$name" echo
    "${load[@]}" echo "ws://127.0.0.1:$server_port/ws" "$connections" "$warmup" "$size" "$server_pid" >/dev/null
    line="$("${load[@]}" echo "ws://127.0.0.1:$server_port/ws" "$connections" "$duration" "$size" "$server_pid" | tail -n 1)"
    stop
    say "round $round $name echo: $line"
    printf '%s\t%s\techo\t%s\n' "$round" "$name" "$line" >>"$results"
    start "$name" broadcast
    line="$("${load[@]}" broadcast "ws://127.0.0.1:$server_port/broadcast" "$bconnections" "$bmessages" "$server_pid" | tail -n 1)"
    stop
    say "round $round $name broadcast: $line"
    printf '%s\t%s\tbroadcast\t%s\n' "$round" "$name" "$line" >>"$results"
  done
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

report="$work/report.md"
"$python" - "$results" "$(getconf CLK_TCK)" "$rounds" "$connections" "$size" "$bconnections" "$bmessages" \
  "$load_before" "$load_after" "$python_loop" >"$report" <<'PY'
import statistics, sys
path, tck, rounds, conns, size, bconns, bmsgs, load_before, load_after, pyloop = sys.argv[1:]
tck = int(tck)
rows = {}
for line in open(path):
    rnd, name, kind, rest = line.rstrip("\n").split("\t")
    f = rest.split()
    count, seconds, ticks = float(f[1]), float(f[3]), float(f[5])
    rows.setdefault((kind, name), []).append((ticks / tck / count * 1e6, count / seconds))
def fmt(values):
    m = statistics.median(values)
    return f"{m:.2f} ({min(values):.2f}-{max(values):.2f})"
print(f"{rounds} rounds, interleaved; load average {load_before} before, {load_after} after. "
      f"Python's websockets on {pyloop}.\n")
for kind, title in (("echo", f"echo of {size}-byte text messages, {conns} connections, one in flight each"),
                    ("broadcast", f"broadcast to {bconns} idle connections, {bmsgs} messages")):
    print(f"**{title}**\n")
    print("| server | server CPU µs per message, median (spread) | ratio to jasyncio | messages/s, median (spread) |")
    print("|---|---|---|---|")
    base = statistics.median(v[0] for v in rows.get((kind, "jasyncio"), [(float("nan"), 0)]))
    for (k, name), values in rows.items():
        if k != kind:
            continue
        cpu = [v[0] for v in values]
        rate = [v[1] for v in values]
        ratio = statistics.median(cpu) / base
        rate_text = f"{statistics.median(rate):,.0f} ({min(rate):,.0f}-{max(rate):,.0f})"
        print(f"| {name} | {fmt(cpu)} | {ratio:.2f}x | {rate_text} |")
    print()
PY
cat "$report"
if [ -f "$doc" ] && grep -q '<!-- ws-results:start -->' "$doc"; then
  "$python" - "$doc" "$report" <<'PY'
import sys
doc, report = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
start, end = "<!-- ws-results:start -->", "<!-- ws-results:end -->"
a, b = text.index(start) + len(start), text.index(end)
open(doc, "w").write(text[:a] + "\n" + report + text[b:])
PY
  say "wrote the WebSocket results into $doc"
fi
