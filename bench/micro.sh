#!/usr/bin/env bash
# The machinery comparison, in one run: the JMH benchmarks (jasyncio and their Netty
# counterparts), the task round trip in Node.js, CPython asyncio and uvloop, and the bytes per
# suspended task; then the ratio goals, checked against the numbers of this very run.
#
# Every benchmark forks with a fixed, pre-touched heap (-Xms2g -Xmx2g -XX:+AlwaysPreTouch, see
# JvmFlags) and, by its annotations, 2 forks x (5 warm-up + 10 measured) 1 s iterations.
#
# usage: bench/micro.sh [--quick] [--default-heap] [JMH options...]
#   --quick: -wi 2 -i 3 -f 1 -w 1s -r 1s
#   --default-heap: the same benchmarks under the JVM's default heap sizing (JMH -jvmArgs replaces
#     the fixed-heap flags), for the table of what default sizing does; results go to
#     bench/target/default-heap/ instead of bench/target/
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { echo "micro.sh: $*" >&2; }

jmh_opts=()
heap_opts=()
work="$root/bench/target"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) jmh_opts=(-wi 2 -i 3 -f 1 -w 1s -r 1s); shift ;;
    --default-heap) heap_opts=(-jvmArgs -Djasyncio.bench.heap=default); work="$root/bench/target/default-heap"; shift ;;
    *) break ;;
  esac
done
if [ $# -gt 0 ]; then jmh_opts=("$@"); fi

java="$(bench/java25.sh)"
python=/usr/bin/python3

./jasyncio build
mkdir -p "$work"
jar="$root/jasyncio-bench/target/benchmarks.jar"

say "JMH: java -jar jasyncio-bench/target/benchmarks.jar ${jmh_opts[*]} ${heap_opts[*]}"
"$java" -jar "$jar" "${jmh_opts[@]}" "${heap_opts[@]}" -rf json -rff "$work/jmh.json" | tee "$work/jmh.log" | grep -E '^(Benchmark|[A-Z][A-Za-z]+Benchmark\.)'

say "Node.js, CPython asyncio and uvloop task round trips"
node bench/micro/node_task_round_trip.js | tee "$work/node.txt"
"$python" bench/micro/asyncio_task_round_trip.py | tee "$work/asyncio.txt"
if "$python" -c 'import uvloop' 2>/dev/null; then
  "$python" bench/micro/asyncio_task_round_trip.py --uvloop | tee "$work/uvloop.txt"
else
  say "uvloop is not installed for $python (apt-get install python3-uvloop): no uvloop row"; : >"$work/uvloop.txt"
fi

say "bytes per suspended task (sleeping, awaiting a future, and the bare continuation floor)"
bench/task-memory.sh | tee "$work/memory.txt"
bench/task-memory.sh 1000000 continuation await | tee "$work/memory-await.txt"
bench/task-memory.sh 1000000 continuation floor | tee "$work/memory-floor.txt"

"$python" - "$work" <<'EOF'
import json, re, sys
work = sys.argv[1]
# keyed "Class.method"; a class with one benchmark also answers to its class name alone
jmh = {".".join(r["benchmark"].split(".")[-2:]): r["primaryMetric"] for r in json.load(open(f"{work}/jmh.json"))}
for key in list(jmh):
    cls = key.split(".")[0]
    if sum(k.startswith(cls + ".") for k in jmh) == 1:
        jmh[cls] = jmh[key]
def field(path, key):
    m = re.search(rf"{key}=([\d.]+)", open(path).read())
    return float(m.group(1)) if m else None
def score(name):
    """(best iteration, mean, error): best against best, as the scripts report their best round."""
    m = jmh[name]
    return min(x for it in m["rawData"] for x in it), m["score"], m["scoreError"]
rt, rt_mean, rt_err = score("TaskRoundTripBenchmark")
fl, fl_mean, fl_err = score("ContinuationFloorBenchmark")
th, th_mean, th_err = score("TaskRoundTripThreadsBenchmark.roundTripOnVirtualLoopThread")
tp, tp_mean, tp_err = score("TaskRoundTripThreadsBenchmark.roundTrip")
vf, vf_mean, vf_err = score("VirtualThreadFloorBenchmark")
node = field(f"{work}/node.txt", "best_ns_per_task")
cpy = field(f"{work}/asyncio.txt", "best_ns_per_task")
uvl = field(f"{work}/uvloop.txt", "best_ns_per_task")
cs, cs_mean, _ = score("CallSoonDrainBenchmark"); nx, nx_mean, _ = score("NettyExecuteBenchmark")
ts, ts_mean, _ = score("TimerScheduleCancelBenchmark"); ns, ns_mean, _ = score("NettyScheduleCancelBenchmark")
mem = field(f"{work}/memory.txt", "bytes_per_task")
mem_await = field(f"{work}/memory-await.txt", "bytes_per_task")
mem_floor = field(f"{work}/memory-floor.txt", "bytes_per_task")
print()
print("ratios are best iteration against best round (means in parentheses); higher = jasyncio faster")
print(f"task round trip: jasyncio {rt:.0f} ns (mean {rt_mean:.0f} +- {rt_err:.0f}); Node {node:.0f} ns; "
      f"asyncio {cpy:.0f} ns" + (f"; uvloop {uvl:.0f} ns" if uvl else ""))
print(f"  bare continuation floor {fl:.0f} ns (mean {fl_mean:.0f} +- {fl_err:.0f}): task / floor {rt / fl:.2f}x "
      f"({rt_mean / fl_mean:.2f}x) (goal <= 1.15x)")
print(f"  portable engine, loop on a virtual thread (as Asyncio.run) {th:.0f} ns (mean {th_mean:.0f} +- {th_err:.0f}): "
      f"{th / rt:.1f}x the continuation engine ({th_mean / rt_mean:.1f}x) (goal <= 5x)")
print(f"    its floor, bare virtual threads in turn with a virtual loop thread {vf:.0f} ns (mean {vf_mean:.0f} +- {vf_err:.0f}): "
      f"portable / its floor {th / vf:.2f}x ({th_mean / vf_mean:.2f}x); the floor alone is {vf / rt:.1f}x the continuation engine "
      f"({vf_mean / rt_mean:.1f}x)")
print(f"  portable engine, loop on a platform thread {tp:.0f} ns (mean {tp_mean:.0f} +- {tp_err:.0f}): "
      f"{tp / rt:.1f}x the continuation engine ({tp_mean / rt_mean:.1f}x)")
print(f"  speed vs Node async functions: {node / rt:.2f}x")
print(f"  speed vs CPython asyncio:      {cpy / rt:.2f}x" + (f"; vs uvloop: {uvl / rt:.2f}x" if uvl else ""))
print(f"callSoon drain vs Netty execute: {nx / cs:.2f}x the speed ({nx_mean / cs_mean:.2f}x) (goal >= 1.0x)")
print(f"timer schedule+cancel vs Netty:  {ns / ts:.2f}x the speed ({ns_mean / ts_mean:.2f}x) (goal >= 1.0x)")
print(f"suspended task: in sleep {mem:.0f} bytes; awaiting a future {mem_await:.0f} bytes, bare continuation "
      f"{mem_floor:.0f} bytes: +{mem_await - mem_floor:.0f} (goal <= +128)")
EOF
