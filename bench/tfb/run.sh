#!/usr/bin/env bash
# The TechEmpower Framework Benchmarks' six test types, on this machine, in one command:
#   plaintext (pipelined 16 deep, bench/tfb/pipeline.lua), json, db (one random World row),
#   queries (?queries=20), fortunes, updates (?queries=20)
# served by
#   jasyncio  jasyncio-http and its router on one epoll loop, JDBC (pgjdbc) on a HikariCP pool, every request's
#             queries in one toThread call (bench/tfb/jasyncio/JasyncioTfb.java)
#   vertx     Vert.x 5 core HttpServer on one event loop, vertx-pg-client: one pipelined
#             connection, as Vert.x's TechEmpower entry does (bench/tfb/vertx/);
#             vertx-N (e.g. --servers "vertx-16"): N pipelined connections, requests spread over them
#   helidon   Helidon 4 SE webserver, a virtual thread per request, JDBC on HikariCP (bench/tfb/helidon/)
# against a throwaway PostgreSQL (bench/tfb/postgres.sh: TechEmpower's schema), stopped at the end.
#
# Steps: PostgreSQL up; build (the jasyncio modules, then each server's own small project: Vert.x
# and Helidon are never part of the main build); validate every server's answers
# (bench/tfb/validate.py: a server that answers wrong is not timed); then rounds: in each round
# every test runs on every server in an order rotated from test to test and round to round, each
# server started fresh, warmed up by an uncounted wrk run, then measured. Reported: requests/s,
# server CPU per request (utime+stime of the server process over the measured window, from
# /proc/PID/stat) and p99, the median round with the lowest and highest (>= 3 rounds).
#
# Pinning (2 cores): each server on CPU 1 (--server-cpus), PostgreSQL and wrk on CPU 0
# (--client-cpus). A JVM pinned to one CPU sees one processor: Vert.x runs one event loop,
# Helidon's virtual threads one carrier, jasyncio one loop (and its executor's virtual threads one
# carrier). Every JVM: -Xms1g -Xmx1g -XX:+AlwaysPreTouch.
# jasyncio's toThread runs each call on a virtual thread (the default valve).
#
# Writes the TechEmpower section of docs/BENCHMARKS.md (between its tfb-results markers); raw
# results in bench/target/tfb-results.tsv.
#
# usage: bench/tfb/run.sh [--rounds R] [--duration S] [--warmup S] [--tests "plaintext json ..."]
#                         [--servers "jasyncio vertx helidon"] [--connections N] [--plaintext-connections N]
#                         [--pool N] [--server-cpus LIST] [--client-cpus LIST] [--doc FILE.md] [--validate-only]
#                         [--profile TEST]
# --profile TEST: instead of the rounds, runs jasyncio under JFR (settings=profile) through one
# measured wrk run of TEST and prints where its CPU goes (jfr view hot-methods, and the hottest
# frames of the server's own threads by package); the recording stays in bench/target/tfb/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

rounds=3
duration=10
warmup=5
tests="plaintext json db queries fortunes updates"
only_servers="jasyncio vertx helidon"
connections=64
plaintext_connections=256
pool=16
server_cpus=1
client_cpus=0
doc="$root/docs/BENCHMARKS.md"
validate_only=0
profile=""
install=1

while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --tests) tests="$2"; shift 2 ;;
    --servers) only_servers="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --plaintext-connections) plaintext_connections="$2"; shift 2 ;;
    --pool) pool="$2"; shift 2 ;;
    --server-cpus) server_cpus="$2"; shift 2 ;;
    --client-cpus) client_cpus="$2"; shift 2 ;;
    --doc) mkdir -p "$(dirname "$2")"; doc="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --validate-only) validate_only=1; shift ;;
    --profile) profile="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$rounds" "$duration" "$warmup" "$connections" "$plaintext_connections" "$pool"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "run.sh: counts and durations are whole numbers, got $n" >&2; exit 2; }
done

work="$root/bench/target/tfb"
mkdir -p "$work"
results="$root/bench/target/tfb-results.tsv"
meta="$root/bench/target/tfb-meta.txt"
python=/usr/bin/python3
tool=tfb/run.sh
# shellcheck source=../servers/lib.sh
. "$root/bench/servers/lib.sh"   # say, apt_install, free_port, start_server, stop_server

# ---- tools ------------------------------------------------------------------------------------

command -v taskset >/dev/null || apt_install util-linux || true
command -v wrk >/dev/null || apt_install wrk || true
command -v wrk >/dev/null || { say "wrk is needed (apt-get install wrk)"; exit 1; }
[ -x "$python" ] || apt_install python3 || true
pin_server=(); pin_client=()
if command -v taskset >/dev/null && [ "$(nproc)" -ge 2 ]; then
  pin_server=(taskset -c "$server_cpus"); pin_client=(taskset -c "$client_cpus")
else
  say "WARNING: no taskset or fewer than 2 CPUs: servers, PostgreSQL and wrk are NOT pinned"
fi
clk_tck="$(getconf CLK_TCK)"

# ---- PostgreSQL (first: installs the package when missing) -----------------------------------

pg_dir="$work/postgres"
rm -rf "$pg_dir"
cleanup() {
  stop_server
  bench/tfb/postgres.sh stop "$pg_dir" || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM
bench/tfb/postgres.sh start "$pg_dir" --owner-pid $$ \
  $([ ${#pin_client[@]} -gt 0 ] && echo "--cpus $client_cpus") >/dev/null
set -a; . "$pg_dir/env"; set +a
export PATH="$PATH:$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"   # psql, for the validator
say "PostgreSQL on 127.0.0.1:$PGPORT"

# ---- build ------------------------------------------------------------------------------------

java="$(bench/java25.sh)"
export JAVA_HOME="$(dirname "$(dirname "$(readlink -f "$java")")")"
export MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow ${MAVEN_OPTS:-}"
say "building the jasyncio modules the server needs (and the db-service example's classpath)"
mvn -q -B -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
  -pl examples/db-service,jasyncio-epoll,jasyncio-uring -am package
jasyncio_cp="$(cat examples/db-service/target/classpath):$root/jasyncio-native/target/jasyncio-native-0.1.0-SNAPSHOT.jar:$root/jasyncio-epoll/target/jasyncio-epoll-0.1.0-SNAPSHOT.jar:$root/jasyncio-uring/target/jasyncio-uring-0.1.0-SNAPSHOT.jar"
rm -rf "$work/jasyncio-classes"
"$JAVA_HOME/bin/javac" -proc:none -d "$work/jasyncio-classes" -cp "$jasyncio_cp" \
  bench/tfb/jasyncio/JasyncioTfb.java bench/tfb/common/tfb/*.java bench/tfb/jdbc/tfb/*.java
for s in vertx helidon; do
  case " $only_servers " in *" $s "*|*" $s-"*)
    say "building the $s server (bench/tfb/$s, its own project)"
    mvn -q -B -f "bench/tfb/$s/pom.xml" -DskipTests package ;;
  esac
done

jars() { ls "$1"/*.jar 2>/dev/null | tr '\n' ':'; }   # a project's copied dependencies, as a class path
jvm_heap=(-Xms1g -Xmx1g -XX:+AlwaysPreTouch)
db_args="--jdbc-url $JDBC_URL --user $PGUSER --password $PGPASSWORD"
# for lib.sh's start_server: the command line of each server (it prints "listening on HOST:PORT")
server_cmd() {
  local name="$1" port="$2"
  case "$name" in
    jasyncio)
      echo "$java ${jvm_heap[*]} --add-exports java.base/jdk.internal.vm=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xss4m -cp $work/jasyncio-classes:$jasyncio_cp tfb.JasyncioTfb --port $port --pool $pool $db_args" ;;
    vertx|vertx-[0-9]*)   # vertx-N: N pipelined connections, the requests spread over them
      local pg_connections=1; [ "$name" = vertx ] || pg_connections="${name#vertx-}"
      echo "$java ${jvm_heap[*]} --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -cp bench/tfb/vertx/target/classes:$(jars bench/tfb/vertx/target/lib) tfb.VertxTfb --port $port --pg-port $PGPORT --pg-connections $pg_connections" ;;
    helidon)
      echo "$java ${jvm_heap[*]} -cp bench/tfb/helidon/target/classes:$(jars bench/tfb/helidon/target/lib) tfb.HelidonTfb --port $port --pool $pool $db_args" ;;
  esac
}

cpu_ticks() {  # utime + stime of the process, all its threads (fields 14 and 15 of /proc/PID/stat)
  sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}

# ---- validate ---------------------------------------------------------------------------------

servers=()
for s in $only_servers; do
  log="$work/validate-$s.log"
  if ! start_server "$s" "$log"; then
    say "SKIPPING $s: it did not start ($(tail -n 3 "$log" | tr '\n' ' ' | cut -c 1-300))"; continue
  fi
  if "$python" bench/tfb/validate.py "http://127.0.0.1:$server_port" "$s" >&2; then
    servers+=("$s")
  else
    say "SKIPPING $s: its answers are wrong (above): not timed"
  fi
  stop_server
done
[ ${#servers[@]} -gt 0 ] || { say "no server answered right"; exit 1; }
[ "$validate_only" = 0 ] || { say "valid: ${servers[*]}"; exit 0; }

{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs"
  echo "kernel=$(uname -sr)"
  echo "java=$("$java" -version 2>&1 | head -n 1)"
  echo "postgres=$(psql --version | head -n 1)"
  echo "wrk=$(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2)"
  echo "versions=vertx 5.0.7 (vertx-pg-client), helidon 4.5.0, pgjdbc 42.7.14, HikariCP 7.1.0"
  echo "duration=$duration"
  echo "warmup=$warmup"
  echo "rounds=$rounds"
  echo "connections=$connections (plaintext: $plaintext_connections, pipelined 16 deep); JDBC pool $pool"
  echo "pinned=$([ ${#pin_server[@]} -gt 0 ] && echo "yes (servers on CPU $server_cpus; PostgreSQL and wrk on CPU $client_cpus)" || echo no)"
  echo "load_start=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "command=bench/tfb/run.sh --rounds $rounds --duration $duration --warmup $warmup"
} >"$meta"

# ---- the rounds -------------------------------------------------------------------------------

test_path() {
  case "$1" in
    plaintext) echo /plaintext ;; json) echo /json ;; db) echo /db ;;
    queries) echo "/queries?queries=20" ;; fortunes) echo /fortunes ;; updates) echo "/updates?queries=20" ;;
  esac
}

if [ -n "$profile" ]; then
  recording="$work/jasyncio-$profile.jfr"
  rm -f "$recording"
  jvm_heap+=("-XX:StartFlightRecording=filename=$recording,settings=profile,dumponexit=true")
  start_server jasyncio "$work/profile.log" || { say "jasyncio did not start (see $work/profile.log)"; exit 1; }
  url="http://127.0.0.1:$server_port$(test_path "$profile")"
  wrk_args=(-t1 -c"$connections"); extra=()
  [ "$profile" != plaintext ] || { wrk_args=(-t1 -c"$plaintext_connections" -s bench/tfb/pipeline.lua); extra=(-- 16); }
  "${pin_client[@]}" wrk "${wrk_args[@]}" -d"${warmup}s" "$url" "${extra[@]}" >/dev/null 2>&1 || true
  before="$(cpu_ticks "$server_pid")"
  out="$("${pin_client[@]}" wrk "${wrk_args[@]}" -d"${duration}s" --latency "$url" "${extra[@]}" 2>&1 || true)"
  after="$(cpu_ticks "$server_pid")"
  stop_server
  say "jasyncio $profile under JFR: $(echo "$out" | "$python" bench/wrk_result.py "$before" "$after" "$clk_tck")"
  "$JAVA_HOME/bin/jfr" view --width 160 hot-methods "$recording"
  say "recording: $recording"
  exit 0
fi

printf 'server\ttest\tround\trequests_per_s\tp50_us\tp99_us\terrors\tserver_cpu_s\tserver_cpu_us_per_request\n' >"$results"
cell=0
for round in $(seq 1 "$rounds"); do
  for t in $tests; do
    n=${#servers[@]}
    for i in $(seq 0 $((n - 1))); do
      s="${servers[$(((i + cell) % n))]}"
      log="$work/server-$s.log"
      start_server "$s" "$log" || { say "$s did not start for $t (see $log)"; continue; }
      url="http://127.0.0.1:$server_port$(test_path "$t")"
      wrk_args=(-t1 -c"$connections")
      [ "$t" != plaintext ] || wrk_args=(-t1 -c"$plaintext_connections" -s bench/tfb/pipeline.lua)
      extra=(); [ "$t" != plaintext ] || extra=(-- 16)
      [ "$warmup" = 0 ] || "${pin_client[@]}" wrk "${wrk_args[@]}" -d"${warmup}s" "$url" "${extra[@]}" >/dev/null 2>&1 || true
      before="$(cpu_ticks "$server_pid")"
      out="$("${pin_client[@]}" wrk "${wrk_args[@]}" -d"${duration}s" --latency "$url" "${extra[@]}" 2>&1 || true)"
      after="$(cpu_ticks "$server_pid")"
      stop_server
      line="$(echo "$out" | "$python" bench/wrk_result.py "$before" "$after" "$clk_tck" || true)"
      if [ -z "$line" ]; then
        say "$s $t: wrk gave no result ($(echo "$out" | tail -n 2 | tr '\n' ' '))"; continue
      fi
      say "round $round $s $t: $line"
      printf '%s\t%s\t%s\t%s\n' "$s" "$t" "$round" "$(echo "$line" | sed 's/[a-z0-9_]*=//g' | tr ' ' '\t')" >>"$results"
    done
    cell=$((cell + 1))
  done
done

echo "load_end=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$meta"
"$python" bench/tfb/report.py "$results" "$meta" "$doc"
say "wrote the TechEmpower section of $doc; raw results in $results"
