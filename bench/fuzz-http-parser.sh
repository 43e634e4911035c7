#!/usr/bin/env bash
# The longer differential fuzz of the HTTP/1.1 request parser against Node's llhttp: the suite's
# LlhttpDifferentialTest with many more seeded mutations per corpus case, over several seeds.
# Every difference must be one the test lists with its RFC 9112 clause; any other fails the run.
#
# usage: bench/fuzz-http-parser.sh [--seeds "1 2 3"] [--mutations N]   (default: seeds 1..5, 2000)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seeds="1 2 3 4 5"
mutations=2000
while [[ $# -gt 0 ]]; do
  case "$1" in
    --seeds) seeds="$2"; shift 2 ;;
    --mutations) mutations="$2"; shift 2 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

if ! command -v node >/dev/null; then
  apt-get install -y nodejs >/dev/null
fi
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"

for seed in $seeds; do
  echo "seed $seed, $mutations mutations per case"
  mvn -o -B -q -pl jasyncio-http -am -Dtest=LlhttpDifferentialTest -Dsurefire.failIfNoSpecifiedTests=false \
      -Djasyncio.http.fuzz.seed="$seed" -Djasyncio.http.fuzz.mutations="$mutations" test
done
