#!/usr/bin/env bash
# The HTTP/1.1 comparison (issue 24), in one run, on this machine: wrk against keep-alive GETs
# of a 13-byte body ("Hello, world!") and of a 16 KiB body, over 1 and 100 connections, served by
#   jasyncio-http (./jasyncio http-server on the nio, epoll and io_uring loops), Netty 4.2
#   codec-http (native epoll), Node.js http, uvloop with httptools and CPython asyncio with
#   httptools, each on ONE thread (bench/servers/: NettyHttpServer in the benchmarks jar,
#   node_http.js, asyncio_http.py).
# Each server runs alone, pinned to CPU 0; wrk (one thread) is pinned to CPU 1. The judged figure
# is the server's own CPU time per request (utime+stime of the server process over the measured
# window, from /proc), with wrk's throughput and p99 latency beside it. For every cell of the
# matrix every server runs in turn, in an order rotated from cell to cell and round to round, so
# drift on the machine spreads over all of them; each server is restarted for each cell, warmed up
# with a wrk run that is not counted, then measured. With --rounds R >= 3 the report shows the
# median round and the spread (lowest and highest).
#
# Writes the HTTP section of docs/BENCHMARKS.md (between its http-results markers); raw results in
# bench/target/http-results.tsv.
#
# usage: bench/compare-http.sh [--duration S] [--warmup S] [--rounds R] [--sizes "13 16384"]
#                              [--connections "1 100"] [--servers "NAME ..."] [--no-install] [--list]
#                              [--doc FILE.md]   (default docs/BENCHMARKS.md)
#                              [--server-cpus LIST] [--client-cpus LIST]   (taskset lists; default 0 and 1)
# Durations are whole seconds (wrk's).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

duration=10
warmup=5   # the JVM servers need their JIT warm (C2) before the measured window
rounds=3
sizes="13 16384"
connections="1 100"
only_servers=""
install=1
doc="$root/docs/BENCHMARKS.md"
server_cpus=0
client_cpus=1
ALL_SERVERS="jasyncio-http-nio jasyncio-http-epoll jasyncio-http-io_uring netty-http-epoll node-http uvloop-httptools
asyncio-httptools"

while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --servers) only_servers="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --doc) mkdir -p "$(dirname "$2")"; doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --server-cpus) server_cpus="$2"; shift 2 ;;
    --client-cpus) client_cpus="$2"; shift 2 ;;
    --list) echo $ALL_SERVERS; exit 0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare-http.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$duration" "$warmup" "$rounds"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "compare-http.sh: durations and rounds are whole numbers, got $n" >&2; exit 2; }
done

work="$root/bench/target"
mkdir -p "$work"
results="$work/http-results.tsv"
meta="$work/http-meta.txt"
python=/usr/bin/python3   # Debian's interpreter: Debian's python3-uvloop and python3-httptools are installed for it
tool=compare-http.sh
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install, bench_build, free_port, start_server, stop_server

# ---- tools ------------------------------------------------------------------------------

command -v taskset >/dev/null || apt_install util-linux || true
command -v wrk >/dev/null || apt_install wrk || true
command -v wrk >/dev/null || { say "wrk is needed (apt-get install wrk)"; exit 1; }
[ -x "$python" ] || apt_install python3 || true
command -v node >/dev/null || apt_install nodejs || true
if [ -x "$python" ] && ! "$python" -c 'import httptools' 2>/dev/null; then apt_install python3-httptools || true; fi
if [ -x "$python" ] && ! "$python" -c 'import uvloop' 2>/dev/null; then apt_install python3-uvloop || true; fi

pin_server=(); pin_client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c "$server_cpus"); pin_client=(taskset -c "$client_cpus")
else
  say "WARNING: no taskset or fewer than 2 CPUs: server and client are NOT pinned"
fi
clk_tck="$(getconf CLK_TCK)"

# ---- build ------------------------------------------------------------------------------

bench_build
trap stop_server EXIT

# The servers of this comparison, for lib.sh's start_server (this replaces lib.sh's echo servers).
# body_size: the size of the body every request gets (13: "Hello, world!").
body_size=13
server_cmd() {
  local name="$1" common="--host 127.0.0.1 --port $2" size_opt=""
  [ "$body_size" = 13 ] || size_opt="--size $body_size"
  case "$name" in
    jasyncio-http-*)
      echo "$java ${jvm_flags[*]} -jar $lab_jar http-server $common --loop ${name#jasyncio-http-} $size_opt" ;;
    netty-http-epoll)
      echo "$java --enable-native-access=ALL-UNNAMED -cp $bench_jar io.jasyncio.bench.NettyHttpServer $common --transport epoll $size_opt" ;;
    node-http) command -v node >/dev/null && echo "node $root/bench/servers/node_http.js $common $size_opt" ;;
    uvloop-httptools)
      "$python" -c 'import uvloop, httptools' 2>/dev/null && \
        echo "$python $root/bench/servers/asyncio_http.py $common $size_opt --uvloop" ;;
    asyncio-httptools)
      "$python" -c 'import httptools' 2>/dev/null && echo "$python $root/bench/servers/asyncio_http.py $common $size_opt" ;;
  esac
  return 0
}

# cpu_ticks PID: utime + stime of the process, all its threads (fields 14 and 15 of /proc/PID/stat).
cpu_ticks() {
  sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# ---- which servers run ------------------------------------------------------------------

servers=()
for s in ${only_servers:-$ALL_SERVERS}; do
  log="$work/probe-$s.log"
  if start_server "$s" "$log"; then
    if curl -fsS --max-time 5 "http://127.0.0.1:$server_port/" >/dev/null 2>&1 \
        || "$python" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$server_port/', timeout=5).read()" 2>/dev/null; then
      servers+=("$s")
    else
      say "SKIPPING $s: it listens but did not answer a GET"
    fi
    stop_server
  else
    say "SKIPPING $s: it did not start ($(head -n 1 "$log" | cut -c 1-100))"
  fi
done
[ ${#servers[@]} -gt 0 ] || { say "no server could start"; exit 1; }
say "servers: ${servers[*]}"

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs"
  echo "kernel=$(uname -sr)"
  echo "java=$("$java" -version 2>&1 | head -n 1)"
  echo "python=$("$python" --version 2>&1)$("$python" -c 'import uvloop; print(", uvloop", uvloop.__version__)' 2>/dev/null || true)$("$python" -c 'import httptools; print(", httptools", httptools.__version__)' 2>/dev/null || true)"
  echo "node=$(node --version 2>/dev/null || echo none)"
  echo "wrk=$(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2)"
  echo "netty=4.2.18.Final"
  echo "duration=$duration"
  echo "warmup=$warmup"
  echo "rounds=$rounds"
  echo "pinned=$([ ${#pin_server[@]} -gt 0 ] && echo "yes (server on CPU $server_cpus, wrk on CPU $client_cpus)" || echo no)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command=bench/compare-http.sh --duration $duration --warmup $warmup --rounds $rounds --sizes \"$sizes\" --connections \"$connections\"$([ -n "$only_servers" ] && echo " --servers \"$only_servers\"")"
} >"$meta"

# ---- the matrix -------------------------------------------------------------------------

printf 'server\tsize\tconnections\tround\trequests_per_s\tp50_us\tp99_us\terrors\tserver_cpu_s\tserver_cpu_us_per_request\n' >"$results"
cell=0
for round in $(seq 1 "$rounds"); do
  for size in $sizes; do
    body_size="$size"
    for conns in $connections; do
      n=${#servers[@]}
      for i in $(seq 0 $((n - 1))); do
        s="${servers[$(((i + cell) % n))]}"
        log="$work/server-$s.log"
        if ! start_server "$s" "$log"; then
          say "$s did not start for size=$size connections=$conns (see $log)"; continue
        fi
        url="http://127.0.0.1:$server_port/"
        if [ "$warmup" -gt 0 ]; then
          "${pin_client[@]}" wrk -t1 -c"$conns" -d"${warmup}s" "$url" >/dev/null 2>&1 || true
        fi
        before="$(cpu_ticks "$server_pid")"
        out="$("${pin_client[@]}" wrk -t1 -c"$conns" -d"${duration}s" --latency "$url" 2>&1 || true)"
        after="$(cpu_ticks "$server_pid")"
        stop_server
        line="$(echo "$out" | "$python" "$root/bench/wrk_result.py" "$before" "$after" "$clk_tck" || true)"
        if [ -z "$line" ]; then
          say "$s size=$size connections=$conns: wrk gave no result ($(echo "$out" | tail -n 2 | tr '\n' ' '))"; continue
        fi
        say "$s size=$size connections=$conns: $line"
        printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$size" "$conns" "$round" "$(echo "$line" | sed 's/[a-z0-9_]*=//g' | tr ' ' '\t')" >>"$results"
      done
      cell=$((cell + 1))
    done
  done
done

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
"$python" "$root/bench/http_report.py" "$results" "$meta" "$doc"
say "wrote the HTTP section of $doc; raw results in $results"
