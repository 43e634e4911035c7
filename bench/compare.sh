#!/usr/bin/env bash
# The side-by-side echo comparison, in one run, on this machine:
#   jasyncio (protocol and streams APIs, nio, epoll and io_uring loops), CPython asyncio and
#   uvloop (protocol and streams), Node.js net, Netty (NIO, native epoll and native io_uring, one
#   event-loop thread), a plain C epoll server as the floor and a plain C io_uring server
#   (bench/servers/c_io_uring_echo.c, liburing: installed with apt-get when missing). The servers' command lines are in
#   bench/servers/lib.sh (shared with bench/syscalls.sh).
# Each server runs alone, pinned to CPU 0; the load client (./jasyncio bench echo) is pinned to
# CPU 1. The judged figure is the server's own CPU time per echoed message (utime+stime of the
# server process over the measured window); throughput and latency stand beside it. For every
# cell of the matrix every server runs in turn, in an order rotated from cell to cell, so drift
# on the machine spreads over all of them.
#
# Writes the echo section of docs/BENCHMARKS.md and docs/benchmarks-echo.svg.
#
# usage: bench/compare.sh [--quick] [--duration S] [--warmup S] [--rounds R]
#                         [--sizes "1024 10240 102400"] [--connections "10 100"]
#                         [--servers "NAME ..."] [--no-install] [--list]
#                         [--doc FILE.md]   (default docs/BENCHMARKS.md; the chart goes beside it)
#                         [--server-cpus LIST] [--client-cpus LIST]   (taskset lists; default 0 and 1)
# base-jasyncio-API-LOOP: that server as built in another checkout, JASYNCIO_BENCH_BASE=DIR (run
# ./jasyncio build there first), beside today's in the same run: a change's before and after.
# Servers with several event-loop threads (bench/group.sh measures them): NAME-xN runs NAME with
# N threads (jasyncio: echo-server --loops N, SO_REUSEPORT listeners; NAME-xNa: one acceptor
# handing connections round-robin; Netty: MultiThreadIoEventLoopGroup(N)), e.g. netty-epoll-x2.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

duration=5
warmup=2
rounds=1
sizes="1024 10240 102400"
connections="10 100"
only_servers=""
install=1
doc="$root/docs/BENCHMARKS.md"
server_cpus=0
client_cpus=1
ALL_SERVERS="c-epoll c-io_uring netty-nio netty-epoll netty-io_uring uvloop-protocol uvloop-streams asyncio-protocol
asyncio-streams node jasyncio-protocol-nio jasyncio-protocol-epoll jasyncio-protocol-io_uring jasyncio-streams-nio
jasyncio-streams-epoll jasyncio-streams-io_uring"

while [ $# -gt 0 ]; do
  case "$1" in
    --quick) duration=1.5; warmup=1; shift ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --servers) only_servers="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --doc) doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --server-cpus) server_cpus="$2"; shift 2 ;;
    --client-cpus) client_cpus="$2"; shift 2 ;;
    --list) echo $ALL_SERVERS; exit 0 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work="$root/bench/target"
mkdir -p "$work"
results="$work/echo-results.tsv"
meta="$work/echo-meta.txt"
python=/usr/bin/python3   # Debian's interpreter: Debian's python3-uvloop is installed for it
tool=compare.sh
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install, bench_build, server_cmd, start_server, stop_server

# ---- tools ------------------------------------------------------------------------------

command -v taskset >/dev/null || apt_install util-linux || true
command -v gcc >/dev/null || apt_install gcc || true
[ -x "$python" ] || apt_install python3 || true
command -v node >/dev/null || apt_install nodejs || true
if [ -x "$python" ] && ! "$python" -c 'import uvloop' 2>/dev/null; then
  apt_install python3-uvloop || true
fi

pin_server=(); pin_client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c "$server_cpus"); pin_client=(taskset -c "$client_cpus")
else
  say "WARNING: no taskset or fewer than 2 CPUs: server and client are NOT pinned"
fi
if [ "$(getconf CLK_TCK)" != 100 ]; then
  say "WARNING: CLK_TCK is $(getconf CLK_TCK), the client assumes 100: CPU figures are off by that factor"
fi

# ---- build ------------------------------------------------------------------------------

bench_build
trap stop_server EXIT

# ---- which servers run ------------------------------------------------------------------

servers=()
for s in ${only_servers:-$ALL_SERVERS}; do
  log="$work/probe-$s.log"
  if start_server "$s" "$log"; then
    servers+=("$s")
    stop_server
  else
    case "$s" in
      jasyncio-*) say "SKIPPING $s: './jasyncio echo-server' is not available in this build ($(head -n 1 "$log" | cut -c 1-100))" ;;
      *) say "SKIPPING $s: it did not start ($(head -n 1 "$log" | cut -c 1-100))" ;;
    esac
  fi
done
[ ${#servers[@]} -gt 0 ] || { say "no server could start"; exit 1; }
say "servers: ${servers[*]}"

# ---- the machine ------------------------------------------------------------------------

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel=$(uname -sr)"
  echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "java=$("$java" -version 2>&1 | head -n 1)"
  echo "python=$("$python" --version 2>&1)$("$python" -c 'import uvloop; print(", uvloop", uvloop.__version__)' 2>/dev/null || true)"
  echo "node=$(node --version 2>/dev/null || echo none)"
  echo "gcc=$(gcc --version 2>/dev/null | head -n 1 || echo none)"
  echo "netty=4.2.18.Final"
  echo "duration=$duration"
  echo "warmup=$warmup"
  echo "rounds=$rounds"
  echo "pinned=$([ ${#pin_server[@]} -gt 0 ] && echo "yes$([ "$server_cpus$client_cpus" != 01 ] && echo " (server on CPU $server_cpus, client on CPU $client_cpus)")" || echo no)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command=bench/compare.sh --duration $duration --warmup $warmup --rounds $rounds --sizes \"$sizes\" --connections \"$connections\"$([ -n "$only_servers" ] && echo " --servers \"$only_servers\"")$([ "$server_cpus$client_cpus" != 01 ] && echo " --server-cpus $server_cpus --client-cpus $client_cpus")"
} >"$meta"

# ---- the matrix -------------------------------------------------------------------------

printf 'server\tsize\tconnections\tround\tmsgs_per_s\tmib_per_s\tp50_us\tp99_us\tp999_us\terrors\tserver_cpu_s\tserver_cpu_us_per_msg\n' >"$results"
cell=0
for round in $(seq 1 "$rounds"); do
  for size in $sizes; do
    for conns in $connections; do
      n=${#servers[@]}
      for i in $(seq 0 $((n - 1))); do
        s="${servers[$(((i + cell) % n))]}"
        log="$work/server-$s.log"
        if ! start_server "$s" "$log"; then
          say "$s did not start for size=$size connections=$conns (see $log)"; continue
        fi
        line="$("${pin_client[@]}" "$java" "${jvm_flags[@]}" -jar "$lab_jar" bench echo --host 127.0.0.1 \
          --port "$server_port" --connections "$conns" --size "$size" --duration "$duration" --warmup "$warmup" \
          --server-pid "$server_pid" 2>"$work/client.err" | grep '^RESULT' || true)"
        stop_server
        if [ -z "$line" ]; then
          say "$s size=$size connections=$conns: no RESULT line ($(tail -n 3 "$work/client.err" | tr '\n' ' '))"; continue
        fi
        say "$s size=$size connections=$conns: ${line#RESULT }"
        # shellcheck disable=SC2001
        values="$(echo "$line" | sed 's/^RESULT //; s/[a-z0-9_]*=//g' | tr ' ' '\t')"
        printf '%s\t%s\t%s\t%s\t%s\n' "$s" "$size" "$conns" "$round" "$values" >>"$results"
      done
      cell=$((cell + 1))
    done
  done
done

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
chart="$(dirname "$doc")/benchmarks-echo.svg"
"$python" "$root/bench/report.py" "$results" "$meta" "$doc" "$chart"
say "wrote $doc (echo section) and $chart; raw results in $results"
