#!/usr/bin/env bash
# The two task engines side by side, in rounds: each round runs the JMH task round trip on both
# engines (TaskRoundTripBenchmark: continuation, with the jdk.internal.vm export;
# TaskRoundTripThreadsBenchmark: threads, without it) and the Node.js async-function round trip,
# then the bytes per suspended task on both. Prints each round's figures and ratios, then the
# median over rounds with the spread (min..max). Ratios are taken within a round.
#
# Each round also runs ContinuationFloorBenchmark (the bare JDK continuation round trip) and
# VirtualThreadFloorBenchmark (bare virtual threads in turn with a virtual loop thread: the portable
# engine's mechanism) and reports each engine's ratio to its floor.
#
# usage: bench/engines.sh [ROUNDS=3] [JMH options...]   default JMH options: -wi 3 -i 5 -f 1 -w 1s -r 1s
#   (the benchmarks' fixed, pre-touched heap comes from their annotations either way)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
shift || true
jmh_opts=(-wi 3 -i 5 -f 1 -w 1s -r 1s)
if [ $# -gt 0 ]; then jmh_opts=("$@"); fi
java="$(bench/java25.sh)"
export JAVA_HOME="$(dirname "$(dirname "$java")")"
jar="$root/jasyncio-bench/target/benchmarks.jar"
[ -f "$jar" ] || ./jasyncio build
work="$root/bench/target/engines"
mkdir -p "$work"

for r in $(seq 1 "$rounds"); do
  echo "engines.sh: round $r of $rounds" >&2
  "$java" -jar "$jar" "${jmh_opts[@]}" -rf json -rff "$work/jmh-$r.json" 'TaskRoundTrip|ContinuationFloor|VirtualThreadFloor' >"$work/jmh-$r.log"
  node bench/micro/node_task_round_trip.js >"$work/node-$r.txt"
  bench/task-memory.sh 1000000 >"$work/memory-continuation-$r.txt"
  bench/task-memory.sh 200000 threads >"$work/memory-threads-$r.txt" 2>/dev/null
done

python3 - "$work" "$rounds" <<'PY'
import json, re, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def field(path, key):
    return float(re.search(rf"{key}=([\d.]+)", open(path).read()).group(1))
rows = []
for r in range(1, rounds + 1):
    jmh = {".".join(x["benchmark"].split(".")[-2:]): x["primaryMetric"]["score"] for x in json.load(open(f"{work}/jmh-{r}.json"))}
    cont, floor = jmh["TaskRoundTripBenchmark.roundTrip"], jmh["ContinuationFloorBenchmark.roundTrip"]
    thr = jmh["TaskRoundTripThreadsBenchmark.roundTripOnVirtualLoopThread"]  # the portable engine as Asyncio.run drives it
    vfloor = jmh["VirtualThreadFloorBenchmark.roundTrip"]
    node = field(f"{work}/node-{r}.txt", "median_ns_per_task")
    mc = field(f"{work}/memory-continuation-{r}.txt", "bytes_per_task")
    mt = field(f"{work}/memory-threads-{r}.txt", "bytes_per_task")
    rows.append(dict(cont=cont, thr=thr, floor=floor, cont_vs_floor=cont / floor, node=node, node_vs_cont=node / cont, thr_vs_cont=thr / cont,
                     vfloor=vfloor, thr_vs_vfloor=thr / vfloor, vfloor_vs_cont=vfloor / cont,
                     node_vs_thr=node / thr, mem_cont=mc, mem_thr=mt))
    print(f"round {r}: round trip floor {floor:.0f} ns, continuation {cont:.0f} ns ({cont / floor:.2f}x the floor), threads {thr:.0f} ns, Node {node:.0f} ns | "
          f"virtual-thread floor {vfloor:.0f} ns (threads/its floor {thr / vfloor:.2f}x, floor/continuation {vfloor / cont:.1f}x) | "
          f"Node/continuation {node / cont:.2f}x, threads/continuation {thr / cont:.1f}x | "
          f"suspended task continuation {mc:.0f} B, threads {mt:.0f} B")
print(f"median of {rounds} rounds (min..max):")
for key, label, fmt in [("floor", "bare continuation floor (ns/task)", "{:.0f}"),
                        ("cont", "round trip, continuation (ns/task)", "{:.0f}"),
                        ("cont_vs_floor", "continuation / floor (x)", "{:.2f}"), ("thr", "round trip, threads (ns/task)", "{:.0f}"),
                        ("node", "round trip, Node async fn (ns/task)", "{:.0f}"),
                        ("node_vs_cont", "speed vs Node, continuation (x)", "{:.2f}"), ("node_vs_thr", "speed vs Node, threads (x)", "{:.3f}"),
                        ("thr_vs_cont", "threads cost / continuation cost (x)", "{:.1f}"),
                        ("vfloor", "virtual-thread floor (ns/task)", "{:.0f}"),
                        ("thr_vs_vfloor", "threads / virtual-thread floor (x)", "{:.2f}"),
                        ("vfloor_vs_cont", "virtual-thread floor / continuation (x)", "{:.1f}"),
                        ("mem_cont", "suspended task, continuation (B)", "{:.0f}"), ("mem_thr", "suspended task, threads (B)", "{:.0f}")]:
    v = [row[key] for row in rows]
    print(f"  {label:40s} {fmt.format(statistics.median(v))}  ({fmt.format(min(v))}..{fmt.format(max(v))})")
PY
