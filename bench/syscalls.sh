#!/usr/bin/env bash
# System calls per echoed message, by system call, for a few echo servers under the same load:
# what each event loop asks of the kernel per message (a readiness loop: an epoll_wait share plus
# a read and a write; a completion loop: a share of one io_uring_enter).
#
# For each server and connection count: the server runs pinned to CPU 0, the load client
# (./jasyncio bench echo) pinned to CPU 1; once the client's warm-up is over the server process
# (all its threads) is counted for a window of --window seconds, by perf (the syscalls:sys_enter_*
# and raw_syscalls:sys_enter tracepoints: counted in the kernel, little overhead) or, with
# --tool strace, by `strace -c -f -p PID` (it stops the server at every call: the calls made per
# message, read and write, come out the same, but the batched ones, epoll_wait and io_uring_enter,
# serve more ready events per call on a slowed server, so fewer per message; the same holds,
# milder, on a loaded machine). The messages of the window are the bytes the server's sockets
# received in it (`ss -ti`'s bytes_received, summed, read just before and after the counter)
# divided by the message size: exact, whatever the counter did to the server's speed.
#
# Prints one table per connection count: calls per echoed message by system call name, the total
# of all system calls, (perf only) the io_uring work per message from the kernel's io_uring
# tracepoints: ring entries submitted (io_uring_submit_req), completions posted
# (io_uring_complete), requests that found their socket not ready and armed a poll to wait
# (io_uring_poll_arm), and completions per io_uring_enter; and (perf only) the server's CPU time per message during the window (from
# /proc/PID/stat, user+system: the raw results keep the two apart, but the kernel splits a task's
# time between them by sampling at clock ticks, too coarse to read over a few seconds).
#
# usage: bench/syscalls.sh [--servers "c-epoll jasyncio-protocol-epoll jasyncio-protocol-io_uring netty-io_uring"]
#                          [--connections "10 100"] [--size 1024] [--window S (3)] [--warmup S (2)]
#                          [--tool perf|strace] [--no-install] [--out FILE.md]
# Server names are bench/compare.sh's (--list there). Raw counts: bench/target/syscalls-*.txt.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

servers_arg="c-epoll jasyncio-protocol-epoll jasyncio-protocol-io_uring netty-io_uring"
connections="10 100"
size=1024
window=3
warmup=2
counter=""
install=1
out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --servers) servers_arg="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --size) size="$2"; shift 2 ;;
    --window) window="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --tool) counter="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "syscalls.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work="$root/bench/target"
mkdir -p "$work"
python=/usr/bin/python3
tool=syscalls.sh
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"

# ---- the counter ------------------------------------------------------------------------

# The system calls counted by name under perf; every other one lands in "other" (total - named).
NAMED="read write readv writev recvfrom sendto recvmsg sendmsg epoll_wait epoll_pwait epoll_pwait2 epoll_ctl
io_uring_enter futex poll ppoll accept4 sched_yield nanosleep clock_nanosleep mprotect madvise"

perf_works() {
  command -v perf >/dev/null && perf stat -e raw_syscalls:sys_enter -x, -- true >/dev/null 2>&1
}
if [ -z "$counter" ]; then
  if perf_works; then counter=perf; else counter=strace; fi
fi
case "$counter" in
  perf) perf_works || { say "perf cannot count the syscall tracepoints here (try --tool strace)"; exit 1; } ;;
  strace) command -v strace >/dev/null || apt_install strace || { say "strace is missing"; exit 1; } ;;
  *) say "--tool must be perf or strace, not $counter"; exit 2 ;;
esac
events="raw_syscalls:sys_enter"
for s in $NAMED; do
  if [ "$counter" = perf ] && perf list "syscalls:sys_enter_$s" 2>/dev/null | grep -q "sys_enter_$s "; then
    events="$events,syscalls:sys_enter_$s"
  fi
done
# io_uring's own tracepoints: what the ring did, counted in the server's threads
RING_EVENTS="io_uring_submit_req io_uring_complete io_uring_poll_arm"
for s in $RING_EVENTS; do
  if [ "$counter" = perf ] && perf list "io_uring:$s" 2>/dev/null | grep -q "io_uring:$s "; then
    events="$events,io_uring:$s"
  fi
done

pin_server=(); pin_client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c 0); pin_client=(taskset -c 1)
else
  say "WARNING: no taskset or fewer than 2 CPUs: server and client are NOT pinned"
fi

bench_build
client_pid=""
cleanup() {
  stop_server
  if [ -n "$client_pid" ]; then kill "$client_pid" 2>/dev/null || true; wait "$client_pid" 2>/dev/null || true; fi
}
trap cleanup EXIT

# received_bytes PORT: the bytes received so far by the server's established sockets on PORT.
received_bytes() {
  ss -tin state established "( sport = :$1 )" | grep -o 'bytes_received:[0-9]*' | cut -d: -f2 |
    awk '{ s += $1 } END { printf "%.0f\n", s }'
}

# cpu_ticks PID: "UTIME STIME" of the process (all its threads), in clock ticks.
cpu_ticks() {
  awk '{ sub(/^.*\) /, ""); print $12, $13 }' "/proc/$1/stat"
}

# count_window PID FILE: counts the process's system calls for $window seconds into FILE as
# "NAME COUNT" lines (perf: the named ones and "total"; strace: all of them and "total"), and
# sets bytes0/bytes1, ticks0/ticks1 and t0/t1 (received_bytes, cpu_ticks, the clock) at the
# moments the counting starts and ends: once perf acknowledges "enable", or once strace traces
# every thread of the process; then just before perf's "disable", or strace's interrupt.
count_window() {
  local pid="$1" file="$2"
  if [ "$counter" = perf ]; then
    local ctl="$work/perf-ctl.fifo" ack="$work/perf-ack.fifo" ctl_fd ack_fd line
    rm -f "$ctl" "$ack"; mkfifo "$ctl" "$ack"
    perf stat -x, -e "$events" -p "$pid" -D -1 --control "fifo:$ctl,$ack" -o "$file.raw" 2>"$file.err" &
    local perf_pid=$!
    exec {ctl_fd}>"$ctl" {ack_fd}<"$ack"
    echo enable >&"$ctl_fd"; read -r -t 30 -u "$ack_fd" line || say "perf did not acknowledge 'enable'"
    mark 0
    sleep "$window"
    mark 1
    echo disable >&"$ctl_fd"; read -r -t 30 -u "$ack_fd" line || say "perf did not acknowledge 'disable'"
    kill -INT "$perf_pid" 2>/dev/null || true
    wait "$perf_pid" 2>/dev/null || true
    exec {ctl_fd}>&- {ack_fd}<&-
    rm -f "$ctl" "$ack"
    awk -F, '$3 == "raw_syscalls:sys_enter" { print "total", $1; next }
             $3 ~ /^syscalls:sys_enter_/ && $1 ~ /^[0-9]+$/ { n = $3; sub(/^syscalls:sys_enter_/, "", n); print n, $1 }
             $3 ~ /^io_uring:/ && $1 ~ /^[0-9]+$/ { n = $3; sub(/^io_uring:/, "ring:", n); print n, $1 }' \
      "$file.raw" >"$file"
  else
    strace -c -f -p "$pid" -o "$file.raw" 2>/dev/null &
    local strace_pid=$! waited=0
    while grep -q '^TracerPid:[[:space:]]*0$' /proc/"$pid"/task/*/status 2>/dev/null; do
      [ "$waited" -lt 300 ] || { say "strace did not attach to every thread of $pid"; break; }
      sleep 0.1; waited=$((waited + 1))
    done
    mark 0
    sleep "$window"
    mark 1
    kill -INT "$strace_pid" 2>/dev/null || true
    wait "$strace_pid" 2>/dev/null || true
    # summary rows: % time, seconds, usecs/call, calls, [errors], syscall; the last row is "total"
    awk '$1 ~ /^[0-9.]+$/ && NF >= 5 { print $NF, $4 }' "$file.raw" >"$file"
  fi
}

# mark 0|1: the start or the end of the counted window (bytes received, CPU ticks, the clock).
mark() {
  printf -v "bytes$1" '%s' "$(received_bytes "$server_port")"
  printf -v "ticks$1" '%s' "$(cpu_ticks "$server_pid")"
  printf -v "t$1" '%s' "$(date +%s.%N)"
}

# ---- the runs ---------------------------------------------------------------------------

results="$work/syscalls-results.tsv"
printf 'server\tconnections\tmessages\tseconds\tuser_ticks\tsys_ticks\tsyscall\tcalls\n' >"$results"
clk_tck="$(getconf CLK_TCK)"
for conns in $connections; do
  for s in $servers_arg; do
    log="$work/server-$s.log"
    if ! start_server "$s" "$log"; then
      say "SKIPPING $s: it did not start ($(head -n 1 "$log" | cut -c 1-100))"; continue
    fi
    "${pin_client[@]}" "$java" "${jvm_flags[@]}" -jar "$lab_jar" bench echo --host 127.0.0.1 --port "$server_port" \
      --connections "$conns" --size "$size" --warmup "$warmup" --duration "$((window + 3))" \
      >"$work/syscalls-client.out" 2>&1 &
    client_pid=$!
    # the client's clock starts once all its connections are up; count after its warm-up
    waited=0
    while [ "$(ss -tn state established "( sport = :$server_port )" | tail -n +2 | wc -l)" -lt "$conns" ]; do
      [ "$waited" -lt 300 ] || break
      sleep 0.1; waited=$((waited + 1))
    done
    sleep "$warmup"; sleep 0.5
    file="$work/syscalls-$s-$conns.txt"
    count_window "$server_pid" "$file"
    wait "$client_pid" || true; client_pid=""
    stop_server
    messages=$(( (bytes1 - bytes0) / size ))
    seconds="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    say "$s, $conns connections: $messages messages in $seconds s ($(grep -o 'msgs_per_s=[0-9]*' "$work/syscalls-client.out" || echo 'no RESULT line'))"
    while read -r name calls; do
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$conns" "$messages" "$seconds" \
        "$(( ${ticks1% *} - ${ticks0% *} ))" "$(( ${ticks1#* } - ${ticks0#* } ))" "$name" "$calls" >>"$results"
    done <"$file"
  done
done

# ---- the table --------------------------------------------------------------------------

"$python" - "$results" "$counter" "$size" "$clk_tck" "$window" "$warmup" "$servers_arg" "$connections" <<'EOF' | tee "${out:-/dev/null}"
import csv, sys
results, counter, size, clk_tck, window, warmup, servers_arg, connections = sys.argv[1:9]
rows = list(csv.DictReader(open(results), delimiter="\t"))
servers = [s for s in servers_arg.split() if any(r["server"] == s for r in rows)]
print(f"System calls per echoed message ({int(size)} B messages; counted by {counter} over ~{window} s after a "
      f"{warmup} s warm-up; command: `bench/syscalls.sh --servers \"{servers_arg}\" --connections \"{connections}\" "
      f"--size {size} --window {window} --warmup {warmup} --tool {counter}`)")
for conns in connections.split():
    cell = {s: [r for r in rows if r["server"] == s and r["connections"] == conns] for s in servers}
    cell = {s: rs for s, rs in cell.items() if rs}
    if not cell:
        continue
    msgs = {s: int(rs[0]["messages"]) for s, rs in cell.items()}
    calls = {s: {r["syscall"]: int(r["calls"]) for r in rs} for s, rs in cell.items()}
    ring = lambda n: n.startswith("ring:")
    names = sorted({n for c in calls.values() for n in c if n != "total" and not ring(n) and c[n] > 0},
                   key=lambda n: -max(calls[s].get(n, 0) / max(msgs[s], 1) for s in cell))
    per = lambda s, n: calls[s].get(n, 0) / msgs[s] if msgs[s] > 0 else float("nan")
    print()
    print(f"**{conns} connections**")
    print()
    print("| syscall | " + " | ".join(cell) + " |")
    print("|---|" + "---:|" * len(cell))
    print("| messages in the window | " + " | ".join(f"{msgs[s]:,}" for s in cell) + " |")
    for n in names:
        if all(per(s, n) < 0.001 for s in cell):
            continue
        print(f"| {n} | " + " | ".join(f"{per(s, n):.3f}" for s in cell) + " |")
    if counter == "perf":
        print("| other | " + " | ".join(
            f"{max(0.0, per(s, 'total') - sum(per(s, n) for n in calls[s] if n != 'total' and not ring(n))):.3f}"
            for s in cell) + " |")
    print("| **all system calls** | " + " | ".join(f"**{per(s, 'total'):.3f}**" for s in cell) + " |")
    labels = [("ring:io_uring_submit_req", "ring entries submitted"), ("ring:io_uring_complete", "ring completions"),
              ("ring:io_uring_poll_arm", "ring requests that waited (armed a poll)")]
    for n, label in labels:
        if any(n in calls[s] for s in cell):
            print(f"| {label} | " + " | ".join(f"{per(s, n):.3f}" for s in cell) + " |")
    if any("ring:io_uring_complete" in calls[s] for s in cell):
        print("| ring completions per io_uring_enter | " + " | ".join(
            f"{calls[s].get('ring:io_uring_complete', 0) / calls[s]['io_uring_enter']:.1f}"
            if calls[s].get("io_uring_enter", 0) > 0 else "-" for s in cell) + " |")
    if counter == "perf":
        cpu = [(int(cell[s][0]["user_ticks"]) + int(cell[s][0]["sys_ticks"])) / int(clk_tck) * 1e6 / msgs[s]
               if msgs[s] else float("nan") for s in cell]
        print("| server CPU us/msg in the window (under perf) | " + " | ".join(f"{c:.2f}" for c in cpu) + " |")
EOF
