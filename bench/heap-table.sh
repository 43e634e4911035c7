#!/usr/bin/env bash
# What the JVM's default heap sizing does to the JMH micro-benchmarks: each round runs every
# benchmark (but the HTTP one) once on the fixed, pre-touched heap the benchmarks' annotations ask
# for (-Xms2g -Xmx2g -XX:+AlwaysPreTouch) and once under the default sizing (JMH -jvmArgs replaces
# just those flags), in an order that alternates from round to round. Prints the markdown table of
# docs/BENCHMARKS.md ("Heap sizing"): per benchmark the median score of the rounds (min..max) on
# each heap, and the median of the round-by-round ratios default / fixed (min..max).
#
# usage: bench/heap-table.sh [ROUNDS=3] [JMH options...]   default JMH options: -wi 3 -i 5 -f 1 -w 1s -r 1s
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
rounds="${1:-3}"
shift || true
jmh_opts=(-wi 3 -i 5 -f 1 -w 1s -r 1s)
if [ $# -gt 0 ]; then jmh_opts=("$@"); fi
java="$(bench/java25.sh)"
export JAVA_HOME="$(dirname "$(dirname "$java")")"
./jasyncio build
jar="$root/jasyncio-bench/target/benchmarks.jar"
work="$root/bench/target/heap-table"
rm -rf "$work"
mkdir -p "$work"

run() {  # $1 = round, $2 = fixed|default
  local heap=()
  if [ "$2" = default ]; then heap=(-jvmArgs -Djasyncio.bench.heap=default); fi
  echo "heap-table.sh: round $1 of $rounds, $2 heap ($(uptime | sed 's/.*load/load/'))" >&2
  "$java" -jar "$jar" "${jmh_opts[@]}" "${heap[@]}" -e HttpRequest -rf json -rff "$work/$2-$1.json" >"$work/$2-$1.log"
}

for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then run "$r" fixed; run "$r" default; else run "$r" default; run "$r" fixed; fi
done

python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def scores(heap, r):
    rows = json.load(open(f"{work}/{heap}-{r}.json"))
    return {".".join(x["benchmark"].split(".")[-2:]): (x["primaryMetric"]["score"], x["primaryMetric"]["scoreUnit"]) for x in rows}
fixed = [scores("fixed", r) for r in range(1, rounds + 1)]
default = [scores("default", r) for r in range(1, rounds + 1)]
def cell(values, fmt):
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}..{fmt(max(values))})"
num = lambda v: f"{v:,.0f}" if v >= 100 else f"{v:,.1f}"
ratio = lambda v: f"{v:.2f}"
print(f"| benchmark (unit) | fixed heap | default heap | default / fixed |")
print(f"|---|---:|---:|---:|")
for name in sorted(fixed[0]):
    f = [run[name][0] for run in fixed]
    d = [run[name][0] for run in default]
    unit = fixed[0][name][1]
    print(f"| `{name}` ({unit}) | {cell(f, num)} | {cell(d, num)} | {cell([b / a for a, b in zip(f, d)], ratio)} |")
# The task engines against their floors, ratios taken within each run (those present in this jar)
pairs = [("TaskRoundTripBenchmark.roundTrip", "ContinuationFloorBenchmark.roundTrip", "continuation engine / bare continuation floor"),
         ("TaskRoundTripThreadsBenchmark.roundTripOnVirtualLoopThread", "VirtualThreadFloorBenchmark.roundTrip", "portable engine (virtual loop) / bare virtual-thread floor"),
         ("TaskRoundTripThreadsBenchmark.roundTripOnVirtualLoopThread", "TaskRoundTripBenchmark.roundTrip", "portable engine (virtual loop) / continuation engine"),
         ("VirtualThreadFloorBenchmark.roundTrip", "ContinuationFloorBenchmark.roundTrip", "bare virtual-thread floor / bare continuation floor")]
print()
print("| ratio, within each run | fixed heap | default heap |")
print("|---|---:|---:|")
for top, bottom, label in pairs:
    if top in fixed[0] and bottom in fixed[0]:
        print(f"| {label} | {cell([run[top][0] / run[bottom][0] for run in fixed], ratio)} | {cell([run[top][0] / run[bottom][0] for run in default], ratio)} |")
PY
