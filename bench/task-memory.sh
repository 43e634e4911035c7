#!/usr/bin/env bash
# Bytes of heap per suspended task: 1,000,000 tasks (or $1) on the continuation engine, or with
# $2 = threads on the portable engine (a JVM without the jdk.internal.vm export); $3 is the shape
# (SuspendedTaskMemory): sleep (default: each awaits a one-hour sleep), await (each awaits a
# pending future of its own: what the task itself holds) or floor (bare JDK continuations
# suspended in their first yield, no jasyncio: what await is compared with).
# Builds the benchmarks jar if it is missing.
# Prints: RESULT tasks=N shape=S bytes_per_task=B
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jar="$root/jasyncio-bench/target/benchmarks.jar"
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
if [ ! -f "$jar" ]; then
  echo "building $jar ..." >&2
  (cd "$root" && MAVEN_OPTS="--sun-misc-unsafe-memory-access=allow" mvn -B -q -pl jasyncio-bench -am -DskipTests package)
fi
# -Xmx leaves room for the tasks; a fixed heap keeps the GC's bookkeeping out of the reading.
engine_flags=(--add-exports java.base/jdk.internal.vm=ALL-UNNAMED)
if [ "${2:-continuation}" = threads ]; then engine_flags=(-Djasyncio.engine=threads); fi
exec "$JAVA_HOME/bin/java" "${engine_flags[@]}" --enable-native-access=ALL-UNNAMED \
  -Xms4g -Xmx4g -cp "$jar" io.jasyncio.bench.SuspendedTaskMemory "${1:-1000000}" "${3:-sleep}"
