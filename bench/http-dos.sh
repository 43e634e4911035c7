#!/usr/bin/env bash
# Issue 35's bound: N loopback connections (default 10,000), each sending a request head that
# announces a 16 MiB body and then nothing, against jasyncio-http on one loop (bench/dos/DosServer.java,
# a fixed pre-touched heap), while ordinary GETs on fresh connections are timed every 100 ms.
# Prints the server's heap after a full GC before the attack and with every connection in, the
# growth per connection, and the GETs' median and worst latency. The rate floors are off by default
# so that the connections stay as long as the measurement (FLOORS=1 keeps them: then the attackers
# are refused 408 after 5 s, and the report counts them).
#
#   bench/http-dos.sh [N] [RUNS]                         (RUNS: default 1)
#   LOOPS="nio epoll io_uring" bench/http-dos.sh 10000   (default: nio)
#   FLOORS=1 HOLD=7 bench/http-dos.sh                    (attackers held 7 s after the last: past the floor's 5 s)
#   REBUILD=1 bench/http-dos.sh                          (compile the modules first; else only when missing)
# Loopback only; each run is bounded (the server is told to quit, or killed after 10 s).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
n="${1:-10000}"
runs="${2:-1}"
loops="${LOOPS:-nio}"
hold="${HOLD:-3}"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
java="$JAVA_HOME/bin/java"
python=/usr/bin/python3   # Debian's interpreter; asyncio alone

need=$((n + 200))
if [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$need" 2>/dev/null || { echo "http-dos: needs $need descriptors per process (ulimit -n is $(ulimit -n), hard $(ulimit -Hn))" >&2; exit 1; }
fi
if [ ! -d jasyncio-http/target/classes ] || [ ! -d jasyncio-uring/target/classes ] || [ "${REBUILD:-0}" = 1 ]; then
  echo "http-dos: compiling jasyncio-http and the native loops ..." >&2
  MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -B -q -pl jasyncio-http,jasyncio-epoll,jasyncio-uring -am -DskipTests compile
fi
cp="jasyncio-core/target/classes:jasyncio-http/target/classes"
for m in jasyncio-native jasyncio-epoll jasyncio-uring; do
  if [ -d "$m/target/classes" ]; then cp="$cp:$m/target/classes"; fi
done
jvm="-Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:+UseG1GC --enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED --add-exports java.base/jdk.internal.vm=ALL-UNNAMED"
floors=()
if [ "${FLOORS:-0}" = 1 ]; then floors=(--floors); fi
echo "http-dos: $n connections, loops: $loops, runs: $runs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$runs"); do
  for loop in $loops; do
    timeout 600 "$python" bench/dos/http_dos.py --java "$java" --cp "$cp" --jvm "$jvm" --loop "$loop" \
      --connections "$n" --hold "$hold" ${floors[@]+"${floors[@]}"}
  done
done
