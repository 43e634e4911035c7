# The echo servers of the comparison, for bench/compare.sh and bench/syscalls.sh (sourced, not run).
#
# The sourcing script sets, before calling these: root (the repository), work (bench/target),
# tool (its name, for messages), install (1: may apt-get install what is missing), python,
# pin_server (an array: the taskset prefix of the server, possibly empty).
# bench_build sets java, jvm_flags, lab_jar, bench_jar, c_server and c_uring_server.

say() { echo "$tool: $*" >&2; }

apt_updated=0
apt_install() {  # apt_install PACKAGE: installs a missing Debian package, and says so
  if [ "$install" = 0 ]; then return 1; fi
  say "installing the missing Debian package '$1' (apt-get install -y $1)"
  if [ "$apt_updated" = 0 ]; then apt-get update -qq >/dev/null 2>&1 || true; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1
}

# bench_build: builds jasyncio (the CLI and the benchmarks jar, which holds the Netty server) and
# the C server.
bench_build() {
  say "building jasyncio (the CLI and the benchmarks jar)"
  ./jasyncio build
  lab_jar="$root/jasyncio-lab/target/jasyncio-lab.jar"
  bench_jar="$root/jasyncio-bench/target/benchmarks.jar"
  [ -f "$bench_jar" ] || { say "missing $bench_jar after the build"; exit 1; }
  java="$(bench/java25.sh)"
  jvm_flags=(--add-exports java.base/jdk.internal.vm=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m)
  # JASYNCIO_BENCH_JVM_FLAGS: more options for the Java servers (e.g. -Djasyncio.uring.taskrun=defer)
  jvm_flags+=(${JASYNCIO_BENCH_JVM_FLAGS:-})
  c_server="$work/c_epoll_echo"
  c_uring_server="$work/c_io_uring_echo"
  if command -v gcc >/dev/null; then
    gcc -O2 -Wall -o "$c_server" bench/servers/c_epoll_echo.c
    # the C io_uring server needs liburing (Debian's liburing-dev)
    [ -f /usr/include/liburing.h ] || apt_install liburing-dev || true
    if [ -f /usr/include/liburing.h ]; then
      gcc -O2 -Wall -o "$c_uring_server" bench/servers/c_io_uring_echo.c -luring
    fi
  fi
}

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
    c-io_uring) [ -x "$c_uring_server" ] && echo "$c_uring_server $common" ;;
    netty-nio|netty-epoll|netty-io_uring)
      echo "$java --enable-native-access=ALL-UNNAMED -cp $bench_jar io.jasyncio.bench.NettyEchoServer $common --transport ${name#netty-}" ;;
    uvloop-protocol|uvloop-streams)
      "$python" -c 'import uvloop' 2>/dev/null && \
        echo "$python $root/bench/servers/asyncio_echo.py $common --api ${name#uvloop-} --uvloop" ;;
    asyncio-protocol|asyncio-streams)
      [ -x "$python" ] && echo "$python $root/bench/servers/asyncio_echo.py $common --api ${name#asyncio-}" ;;
    node) command -v node >/dev/null && echo "node $root/bench/servers/node_echo.js $common" ;;
    base-jasyncio-*)  # the same server built from another checkout (JASYNCIO_BENCH_BASE=DIR, ./jasyncio build run there): before/after in one run
      local base_jar="${JASYNCIO_BENCH_BASE:-/nonexistent}/jasyncio-lab/target/jasyncio-lab.jar"
      [ -f "$base_jar" ] && server_cmd "${name#base-}" "$port" | sed "s#$lab_jar#$base_jar#" ;;
    jasyncio-*)  # jasyncio-API-LOOP: the launcher's echo-server, --api API --loop LOOP (nio, epoll, io_uring)
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

# start_server NAME LOG: starts it pinned (pin_server), waits for "listening on HOST:PORT";
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
