#!/usr/bin/env bash
# The side-by-side echo comparison, in one run, on this machine:
#   jasyncio (protocol and streams APIs, nio and epoll loops), CPython asyncio and uvloop
#   (protocol and streams), Node.js net, Netty (NIO and native epoll, one event-loop thread)
#   and a plain C epoll server as the floor.
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
ALL_SERVERS="c-epoll netty-nio netty-epoll uvloop-protocol uvloop-streams asyncio-protocol asyncio-streams node
jasyncio-protocol-nio jasyncio-protocol-epoll jasyncio-streams-nio jasyncio-streams-epoll"

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

say() { echo "compare.sh: $*" >&2; }

work="$root/bench/target"
mkdir -p "$work"
results="$work/echo-results.tsv"
meta="$work/echo-meta.txt"
python=/usr/bin/python3   # Debian's interpreter: Debian's python3-uvloop is installed for it

# ---- tools ------------------------------------------------------------------------------

apt_updated=0
apt_install() {  # apt_install PACKAGE: installs a missing Debian package, and says so
  if [ "$install" = 0 ]; then return 1; fi
  say "installing the missing Debian package '$1' (apt-get install -y $1)"
  if [ "$apt_updated" = 0 ]; then apt-get update -qq >/dev/null 2>&1 || true; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1
}

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

say "building jasyncio (the CLI and the benchmarks jar)"
./jasyncio build
lab_jar="$root/jasyncio-lab/target/jasyncio-lab.jar"
bench_jar="$root/jasyncio-bench/target/benchmarks.jar"
[ -f "$bench_jar" ] || { say "missing $bench_jar after the build"; exit 1; }
java="$(bench/java25.sh)"
jvm_flags=(--add-exports java.base/jdk.internal.vm=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m)

c_server="$work/c_epoll_echo"
if command -v gcc >/dev/null; then
  gcc -O2 -Wall -o "$c_server" bench/servers/c_epoll_echo.c
fi

# ---- servers ----------------------------------------------------------------------------

# server_cmd NAME PORT: prints the command line of a server, or nothing when it cannot run here.
server_cmd() {
  local name="$1" port="$2" common="--host 127.0.0.1 --port $2"
  # NAME-xN / NAME-xNa: the same server with N event-loop threads (a: one acceptor)
  if [[ "$name" =~ ^(.*)-x([0-9]+)(a?)$ ]]; then
    local base="${BASH_REMATCH[1]}" n="${BASH_REMATCH[2]}" acceptor="${BASH_REMATCH[3]}" cmd
    cmd="$(server_cmd "$base" "$port")"
    [ -n "$cmd" ] || return 0
    case "$base" in
      netty-*) [ -z "$acceptor" ] && echo "$cmd --threads $n" ;;
      jasyncio-*) echo "$cmd --loops $n --spread $([ -n "$acceptor" ] && echo ACCEPTOR || echo REUSE_PORT)" ;;
    esac
    return 0
  fi
  case "$name" in
    c-epoll) [ -x "$c_server" ] && echo "$c_server $common" ;;
    netty-nio) echo "$java -cp $bench_jar io.jasyncio.bench.NettyEchoServer $common --transport nio" ;;
    netty-epoll) echo "$java -cp $bench_jar io.jasyncio.bench.NettyEchoServer $common --transport epoll" ;;
    uvloop-protocol|uvloop-streams)
      "$python" -c 'import uvloop' 2>/dev/null && \
        echo "$python $root/bench/servers/asyncio_echo.py $common --api ${name#uvloop-} --uvloop" ;;
    asyncio-protocol|asyncio-streams)
      [ -x "$python" ] && echo "$python $root/bench/servers/asyncio_echo.py $common --api ${name#asyncio-}" ;;
    node) command -v node >/dev/null && echo "node $root/bench/servers/node_echo.js $common" ;;
    jasyncio-*)
      local api loop; api="$(echo "$name" | cut -d- -f2)"; loop="$(echo "$name" | cut -d- -f3)"
      echo "$java ${jvm_flags[*]} -jar $lab_jar echo-server $common --api $api --loop $loop" ;;
  esac
  return 0
}

free_port() {
  "$python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
trap stop_server EXIT

# start_server NAME LOG: starts it pinned to CPU 0, waits for "listening on HOST:PORT";
# sets server_pid and server_port, or returns 1 (the log says why).
start_server() {
  local name="$1" log="$2" port cmd
  port="$(free_port)"
  cmd="$(server_cmd "$name" "$port")"
  [ -n "$cmd" ] || { echo "cannot run here (missing tool)" >"$log"; return 1; }
  rm -f "$log"   # here, not in the background job: an old "listening on" line must never be read
  # shellcheck disable=SC2086  # the command line is split on purpose
  "${pin_server[@]}" $cmd >"$log" 2>&1 &
  server_pid=$!
  local waited=0
  while ! grep -q '^listening on ' "$log" 2>/dev/null; do
    if ! kill -0 "$server_pid" 2>/dev/null; then wait "$server_pid" 2>/dev/null || true; server_pid=""; return 1; fi
    if [ "$waited" -ge 300 ]; then stop_server; echo "(no 'listening on' line after 30 s)" >>"$log"; return 1; fi
    sleep 0.1; waited=$((waited + 1))
  done
  server_port="$(sed -n 's/^listening on .*:\([0-9][0-9]*\)$/\1/p' "$log" | head -n 1)"
  [ -n "$server_port" ] || { stop_server; echo "(unreadable 'listening on' line)" >>"$log"; return 1; }
}

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
