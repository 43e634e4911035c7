#!/usr/bin/env bash
# What routing costs the hello-world server (issue 37), in one run: wrk against keep-alive GETs of
# the 13-byte "Hello, world!" over 100 (and 1) connections, served by io.jasyncio.bench.RoutedHttpServer
# (in the benchmarks jar) four ways on one loop:
#   plain      a whole-request handler answering one response (as ./jasyncio http-server)
#   streaming  a streaming handler answering the same response whole (a router's server mode, no router)
#   router1    a Router of the one route GET /
#   router20   a Router of 20 routes (literals, parameters, a rest, several methods), asked for
#              /api/v1/users/42/orders/7 (two path parameters, decoded into the request's copy)
#   router1-whole, router20-whole   the same routers as whole-request handlers (Router.wholeRequests())
# The server runs alone pinned to CPU 0, wrk (one thread) to CPU 1. Judged on the server's own CPU
# time per request (utime+stime from /proc over the measured window, after an uncounted warm-up
# run), as bench/compare-http.sh judges; each mode is restarted for each cell, and the modes run in
# an order rotated from cell to cell and round to round. The report gives each cell's median round
# with the spread, and each mode's ratio to plain taken round by round; it writes the table into
# docs/BENCHMARKS.md between its routing-results markers.
#
# usage: bench/routing.sh [--duration S] [--warmup S] [--rounds R] [--connections "100 1"]
#                         [--loop nio|epoll|io_uring] [--modes "plain streaming router1 router20 ..."]
#                         [--no-install] [--doc FILE.md]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

duration=10
warmup=5
rounds=3
connections="100"
loop=epoll
modes="plain streaming router1 router20 router1-whole router20-whole"
install=1
doc="$root/docs/BENCHMARKS.md"

while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --loop) loop="$2"; shift 2 ;;
    --modes) modes="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --doc) mkdir -p "$(dirname "$2")"; doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "routing.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$duration" "$warmup" "$rounds"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "routing.sh: durations and rounds are whole numbers, got $n" >&2; exit 2; }
done

work="$root/bench/target"
mkdir -p "$work"
results="$work/routing-results.tsv"
meta="$work/routing-meta.txt"
python=/usr/bin/python3
tool=routing.sh
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install, bench_build, free_port, start_server, stop_server

command -v taskset >/dev/null || apt_install util-linux || true
command -v wrk >/dev/null || apt_install wrk || true
command -v wrk >/dev/null || { say "wrk is needed (apt-get install wrk)"; exit 1; }
[ -x "$python" ] || apt_install python3 || true

pin_server=(); pin_client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c 0); pin_client=(taskset -c 1)
else
  say "WARNING: no taskset or fewer than 2 CPUs: server and client are NOT pinned"
fi
clk_tck="$(getconf CLK_TCK)"

bench_build
trap stop_server EXIT

# lib.sh's start_server runs this; the lab jar first: its manifest brings the loops' modules.
server_cmd() {
  echo "$java ${jvm_flags[*]} --add-exports java.base/sun.nio.ch=ALL-UNNAMED -Xms1g -Xmx1g -XX:+AlwaysPreTouch" \
    "-cp $lab_jar:$bench_jar io.jasyncio.bench.RoutedHttpServer --host 127.0.0.1 --port $2 --loop $loop --mode $1"
}

target_of() {
  case "$1" in
    router20*) echo "/api/v1/users/42/orders/7" ;;
    *) echo "/" ;;
  esac
}

cpu_ticks() {
  sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

read -r -a mode_list <<<"$modes"
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs"
  echo "java=$("$java" -version 2>&1 | head -n 1)"
  echo "loop=$loop"
  echo "duration=$duration"
  echo "warmup=$warmup"
  echo "rounds=$rounds"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command=bench/routing.sh --duration $duration --warmup $warmup --rounds $rounds --connections \"$connections\" --loop $loop --modes \"$modes\""
} >"$meta"

printf 'mode\tconnections\tround\trequests_per_s\tp50_us\tp99_us\terrors\tserver_cpu_s\tserver_cpu_us_per_request\n' >"$results"
cell=0
for round in $(seq 1 "$rounds"); do
  for conns in $connections; do
    n=${#mode_list[@]}
    for i in $(seq 0 $((n - 1))); do
      m="${mode_list[$(((i + cell) % n))]}"
      log="$work/routing-server-$m.log"
      if ! start_server "$m" "$log"; then
        say "$m did not start (see $log)"; continue
      fi
      url="http://127.0.0.1:$server_port$(target_of "$m")"
      [ "$warmup" -gt 0 ] && { "${pin_client[@]}" wrk -t1 -c"$conns" -d"${warmup}s" "$url" >/dev/null 2>&1 || true; }
      before="$(cpu_ticks "$server_pid")"
      out="$("${pin_client[@]}" wrk -t1 -c"$conns" -d"${duration}s" --latency "$url" 2>&1 || true)"
      after="$(cpu_ticks "$server_pid")"
      stop_server
      line="$(echo "$out" | "$python" "$root/bench/wrk_result.py" "$before" "$after" "$clk_tck" || true)"
      [ -n "$line" ] || { say "$m connections=$conns: wrk gave no result"; continue; }
      say "round $round $m connections=$conns: $line"
      printf '%s\t%s\t%s\t%s\n' "$m" "$conns" "$round" "$(echo "$line" | sed 's/[a-z0-9_]*=//g' | tr ' ' '\t')" >>"$results"
    done
    cell=$((cell + 1))
  done
done

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
"$python" "$root/bench/routing_report.py" "$results" "$meta" "$doc"
say "wrote the routing table of $doc; raw results in $results"
