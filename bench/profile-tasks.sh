#!/usr/bin/env bash
# Where a task round trip's time and allocation go: TaskRoundTripBenchmark (or $1, a JMH regexp)
# under JMH's JFR profiler, then the recording's CPU samples (top frames, self and inclusive) and
# sampled allocation (by class and site), aggregated. Recording: bench/target/profile/.
#
# usage: bench/profile-tasks.sh [BENCHMARK_REGEXP] [JMH options...]   default: -wi 3 -i 4 -f 1 -w 2s -r 3s
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bench="${1:-TaskRoundTripBenchmark}"
shift || true
jmh_opts=(-wi 3 -i 4 -f 1 -w 2s -r 3s)
if [ $# -gt 0 ]; then jmh_opts=("$@"); fi
java="$(bench/java25.sh)"
jfr="$(dirname "$java")/jfr"
jar="$root/jasyncio-bench/target/benchmarks.jar"
[ -f "$jar" ] || ./jasyncio build
out="$root/bench/target/profile"
rm -rf "$out" && mkdir -p "$out"
"$java" -jar "$jar" "${jmh_opts[@]}" -prof "jfr:dir=$out;configName=profile" "$bench" >"$out/jmh.log"
recording="$(find "$out" -name '*.jfr' | head -n 1)"
"$jfr" print --json --events jdk.ExecutionSample "$recording" >"$out/cpu.json"
"$jfr" print --json --events jdk.ObjectAllocationSample "$recording" >"$out/alloc.json"
grep -E '^(Benchmark|[A-Za-z]+Benchmark\.)' "$out/jmh.log" || true
python3 - "$out" <<'PY'
import collections, json, sys
out = sys.argv[1]
def frames(e):
    st = e["values"].get("stackTrace") or {}
    return [f["method"]["type"]["name"].split("/")[-1] + "." + f["method"]["name"] for f in st.get("frames", [])]
events = json.load(open(f"{out}/cpu.json"))["recording"]["events"]
self_, incl = collections.Counter(), collections.Counter()
for e in events:
    fr = frames(e)
    if fr:
        self_[fr[0]] += 1
    for f in set(fr):
        incl[f] += 1
n = max(1, len(events))
print(f"CPU samples: {len(events)}")
for k, v in self_.most_common(15):
    print(f"  self {100 * v / n:5.1f}%  {k}")
for k, v in incl.most_common(20):
    print(f"  incl {100 * v / n:5.1f}%  {k}")
events = json.load(open(f"{out}/alloc.json"))["recording"]["events"]
by_class, by_site = collections.Counter(), collections.Counter()
for e in events:
    w, cls, fr = e["values"]["weight"], e["values"]["objectClass"]["name"], frames(e)
    by_class[cls] += w
    by_site[(cls, " <- ".join(fr[:2]))] += w
total = max(1, sum(by_class.values()))
print("allocation (sampled weight) by class:")
for k, v in by_class.most_common(14):
    print(f"  {100 * v / total:5.1f}%  {k}")
print("by site:")
for (cls, site), v in by_site.most_common(10):
    print(f"  {100 * v / total:5.1f}%  {cls}  at {site}")
PY
