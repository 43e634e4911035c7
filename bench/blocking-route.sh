#!/usr/bin/env bash
# The valve (issue 38): the service of examples/blocking-route (a jasyncio-http route that makes a
# 50 ms blocking call through toThread, as the README says, and one upstream call through the
# pooled HttpClient) under wrk -c50, with the default executor as
#   virtual   the default: one virtual thread per toThread call
#   platform  asyncio's sizing, -Djasyncio.executor=platform: min(32, cpus + 4) threads
# side by side: each round runs both, in an order that alternates from round to round; each run
# starts a fresh JVM (fixed, pre-touched heap), warms it up with a wrk run that is not counted,
# then measures. Reports the median round and the spread (lowest, highest) of requests/s, p50 and
# p99 latency, and the server's CPU per request, with the ratio virtual/platform of the medians.
#
# Not pinned by default, so the JVM sees the machine's CPUs (the sized pool is cpus + 4 threads,
# as a user would have it); --pin runs the server on CPU 0 and wrk on CPU 1 (the JVM then sees
# one CPU: a pool of 5).
#
# Raw results in bench/target/blocking-route.tsv; the table between the blocking-route-results
# markers of docs/BENCHMARKS.md (or --doc FILE).
#
# usage: bench/blocking-route.sh [--rounds R] [--duration S] [--warmup S] [--connections N]
#                                [--blocking-ms MS] [--pin] [--no-install] [--doc FILE.md]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

rounds=3
duration=10
warmup=3
connections=50
blocking_ms=50
pin=0
install=1
doc="$root/docs/BENCHMARKS.md"
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --blocking-ms) blocking_ms="$2"; shift 2 ;;
    --pin) pin=1; shift ;;
    --no-install) install=0; shift ;;
    --doc) doc="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "blocking-route.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$duration" "$warmup" "$connections" "$blocking_ms"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "blocking-route.sh: whole numbers only, got $n" >&2; exit 2; }
done

work="$root/bench/target"
mkdir -p "$work"
python=/usr/bin/python3
tool=blocking-route.sh
# shellcheck source=servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install, free_port, stop_server, start_server's waiting

command -v wrk >/dev/null || apt_install wrk || true
command -v wrk >/dev/null || { say "wrk is needed (apt-get install wrk)"; exit 1; }
command -v taskset >/dev/null || apt_install util-linux || true
[ -x "$python" ] || apt_install python3 || true

say "building jasyncio"
./jasyncio build
java="$(bench/java25.sh)"
classes="$work/blocking-route-classes"
cp_lib="$root/jasyncio-core/target/classes:$root/jasyncio-http/target/classes"
rm -rf "$classes"; mkdir -p "$classes"
"$(dirname "$java")/javac" -proc:none -d "$classes" -cp "$cp_lib" examples/blocking-route/BlockingRouteService.java

pin_server=(); pin_client=()
if [ "$pin" = 1 ]; then
  pin_server=(taskset -c 0); pin_client=(taskset -c 1)
fi
clk_tck="$(getconf CLK_TCK)"
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
trap stop_server EXIT

# server_cmd NAME PORT (lib.sh's start_server calls it): the service with the named executor
server_cmd() {
  local flags=(-Xms512m -Xmx512m -XX:+AlwaysPreTouch --add-exports java.base/jdk.internal.vm=ALL-UNNAMED)
  [ "$1" = platform ] && flags+=(-Djasyncio.executor=platform)
  echo "$java ${flags[*]} -cp $classes:$cp_lib BlockingRouteService --port $2 --blocking-ms $blocking_ms"
}

results="$work/blocking-route.tsv"
{
  echo "# date=$(date -u '+%Y-%m-%d %H:%M UTC') cpus=$(nproc) java=$("$java" -version 2>&1 | head -n 1)"
  echo "# load_before=$(cut -d' ' -f1-3 /proc/loadavg) pin=$pin connections=$connections blocking_ms=$blocking_ms duration=$duration"
  printf 'round\tvariant\trequests_per_s\tp50_us\tp99_us\terrors\tserver_cpu_us_per_request\n'
} >"$results"

variants=(virtual platform)
for ((round = 1; round <= rounds; round++)); do
  order=("${variants[@]}")
  if [ $((round % 2)) = 0 ]; then order=(platform virtual); fi
  for v in "${order[@]}"; do
    log="$work/blocking-route-$v.log"
    start_server "$v" "$log" || { say "the $v server did not start:"; cat "$log" >&2; exit 1; }
    url="http://127.0.0.1:$server_port/order"
    curl -fsS --max-time 5 "$url" >/dev/null || { say "the $v server did not answer"; exit 1; }
    "${pin_client[@]}" wrk -t1 -c"$connections" -d"${warmup}s" "$url" >/dev/null
    before="$(cpu_ticks "$server_pid")"
    report="$("${pin_client[@]}" wrk -t1 -c"$connections" -d"${duration}s" --timeout 10s --latency "$url")"
    after="$(cpu_ticks "$server_pid")"
    line="$(echo "$report" | "$python" bench/wrk_result.py "$before" "$after" "$clk_tck")"
    stop_server
    [ -n "$line" ] || { say "no result from wrk for $v:"; echo "$report" >&2; exit 1; }
    say "round $round $v: $line"
    echo "$line" | awk -v r="$round" -v v="$v" '{
      for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r, v, f["requests_per_s"], f["p50_us"], f["p99_us"], f["errors"], f["server_cpu_us_per_request"]
    }' >>"$results"
  done
done
echo "# load_after=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$results"

"$python" - "$results" "$doc" "$rounds" "$connections" "$blocking_ms" "$duration" "$pin" <<'PY'
import statistics, sys
results, doc, rounds, conns, blocking, duration, pin = sys.argv[1:8]
rows, meta = [], []
for line in open(results):
    if line.startswith("#"):
        meta.append(line[1:].strip()); continue
    if line.startswith("round"):
        continue
    r, v, rps, p50, p99, err, cpu = line.rstrip("\n").split("\t")
    rows.append((v, float(rps), float(p50), float(p99), int(err), float(cpu)))
def stat(v, k):
    xs = [row[k] for row in rows if row[0] == v]
    return statistics.median(xs), min(xs), max(xs)
def cell(v, k, scale=1.0, fmt="%.0f"):
    m, lo, hi = stat(v, k)
    return (fmt % (m / scale)) + " (" + (fmt % (lo / scale)) + "-" + (fmt % (hi / scale)) + ")"
out = ["<!-- blocking-route-results:begin (written by bench/blocking-route.sh; edits here are overwritten) -->", ""]
out.append("`bench/blocking-route.sh --rounds %s` (wrk -t1 -c%s -d%ss, a %s ms blocking call per request; %s). %s." % (
    rounds, conns, duration, blocking, "server on CPU 0, wrk on CPU 1" if pin == "1" else "not pinned", "; ".join(meta)))
out.append("")
out.append("| default executor | requests/s | p50 ms | p99 ms | server CPU us/request | errors |")
out.append("| --- | --- | --- | --- | --- | --- |")
for v, name in (("virtual", "virtual threads (the default)"), ("platform", "asyncio's sized pool (`-Djasyncio.executor=platform`)")):
    errs = sum(row[4] for row in rows if row[0] == v)
    out.append("| %s | %s | %s | %s | %s | %d |" % (name, cell(v, 1), cell(v, 2, 1000, "%.1f"), cell(v, 3, 1000, "%.1f"),
                                                cell(v, 5, 1, "%.1f"), errs))
ratio = stat("virtual", 1)[0] / stat("platform", 1)[0]
out.append("")
out.append("Median of %s interleaved rounds (lowest-highest in parentheses). Throughput ratio virtual/platform: **%.2fx**." % (rounds, ratio))
out.append("")
out.append("<!-- blocking-route-results:end -->")
text = open(doc).read()
begin, end = "<!-- blocking-route-results:begin", "<!-- blocking-route-results:end -->"
block = "\n".join(out)
if begin in text and end in text:
    text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
open(doc, "w").write(text)
print(block)
PY
