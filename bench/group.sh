#!/usr/bin/env bash
# Event-loop groups: jasyncio's EventLoopGroup (./jasyncio echo-server --loops N) beside Netty's
# MultiThreadIoEventLoopGroup with the same thread counts, 1 and 2 threads, run by bench/compare.sh
# (same client, same judged figure: the server's CPU time per echoed message).
#
# Servers: jasyncio protocol API with 1 loop, 2 loops on SO_REUSEPORT listeners (x2), 2 loops
# behind one acceptor (x2a); Netty with 1 and 2 event-loop threads (one acceptor, as Netty does by
# default). The server may use CPUs 0 and 1, the client is pinned to CPU 1: on a 2-core machine a
# second server thread competes with the client for its core, so throughput there says more about
# the machine than about the servers; CPU per message is the figure to read.
#
# Writes the group section of docs/BENCHMARKS.md (medians of the interleaved rounds, with the
# spread) and keeps the raw results in bench/target/group-results.tsv.
#
# usage: bench/group.sh [--rounds R (3)] [--duration S (5)] [--warmup S (2)] [--loop epoll|nio (epoll)]
#                       [--sizes "1024"] [--connections "10 100"] [--doc FILE.md]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rounds=3
duration=5
warmup=2
loop=epoll
sizes="1024"
connections="10 100"
doc="$root/docs/BENCHMARKS.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --loop) loop="$2"; shift 2 ;;
    --sizes) sizes="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --doc) doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "group.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

work="$root/bench/target"
mkdir -p "$work"
servers="jasyncio-protocol-$loop jasyncio-protocol-$loop-x2 jasyncio-protocol-$loop-x2a netty-$loop netty-$loop-x2"
# compare.sh's own report goes to a scratch file: the echo section of the real doc stays as it is.
bench/compare.sh --rounds "$rounds" --duration "$duration" --warmup "$warmup" --sizes "$sizes" \
  --connections "$connections" --servers "$servers" --server-cpus 0,1 --client-cpus 1 --no-install \
  --doc "$work/group-scratch.md"
cp "$work/echo-results.tsv" "$work/group-results.tsv"
cp "$work/echo-meta.txt" "$work/group-meta.txt"
/usr/bin/python3 "$root/bench/group_report.py" "$work/group-results.tsv" "$work/group-meta.txt" "$doc" \
  "bench/group.sh --rounds $rounds --duration $duration --warmup $warmup --loop $loop --sizes \"$sizes\" --connections \"$connections\""
echo "group.sh: wrote the group section of $doc; raw results in $work/group-results.tsv" >&2
