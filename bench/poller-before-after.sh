#!/usr/bin/env bash
# The epoll poller of a base commit against the working tree's, side by side in rounds: each round
# runs epoll's LoopSpeedHarness (nio and epoll interleaved: TCP ping-pong, cross-thread wake-up, a
# bare iteration, an iteration polling one idle fd) once with the base EpollPoller first on the
# class path and once with the tree's. nio is each run's control: compare the epoll/nio ratios.
# Fixed, pre-touched heap. Prints each run's figures with the load average.
#
# usage: bench/poller-before-after.sh BASE_COMMIT [ROUNDS=3] [SECONDS=1]
#   e.g. bench/poller-before-after.sh affe899   (before the kit's shared FdWatches)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
base="${1:?usage: bench/poller-before-after.sh BASE_COMMIT [ROUNDS] [SECONDS]}"
rounds="${2:-3}"
seconds="${3:-1}"
java="$(bench/java25.sh)"
export JAVA_HOME="$(dirname "$(dirname "$java")")"
export MAVEN_OPTS="${MAVEN_OPTS:---sun-misc-unsafe-memory-access=allow}"
mvn -B -q -pl jasyncio-epoll -am -DskipTests test-compile
work="$root/bench/target/poller-before-after"
rm -rf "$work" && mkdir -p "$work/src" "$work/classes"
git show "$base:jasyncio-epoll/src/main/java/io/jasyncio/epoll/EpollPoller.java" > "$work/src/EpollPoller.java"
cp="jasyncio-core/target/classes:jasyncio-native/target/classes:jasyncio-epoll/target/classes:jasyncio-epoll/target/test-classes"
"$JAVA_HOME/bin/javac" -nowarn -d "$work/classes" -cp "$cp" "$work/src/EpollPoller.java"
flags=(-Xms512m -Xmx512m -XX:+AlwaysPreTouch --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
       --add-exports java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED)
for r in $(seq 1 "$rounds"); do
  for which in base tree; do
    extra=""
    if [ "$which" = base ]; then extra="$work/classes:"; fi
    echo "== round $r, $which ($base or the tree), load $(cut -d' ' -f1-3 /proc/loadavg)"
    "$JAVA_HOME/bin/java" "${flags[@]}" -cp "$extra$cp" io.jasyncio.epoll.LoopSpeedHarness "$seconds" 3 | grep -v rounds
  done
done
