#!/usr/bin/env bash
# Prints the path of a JDK 25 java binary (JAVA_HOME first, then /usr/lib/jvm/*25*), or says
# there is none and fails. Used by micro.sh and compare.sh: java="$(bench/java25.sh)".
for d in "${JAVA_HOME:-/nonexistent}" /usr/lib/jvm/*25*; do
  if [ -x "$d/bin/java" ] && "$d/bin/java" -version 2>&1 | head -n 1 | grep -q '"25'; then echo "$d/bin/java"; exit 0; fi
done
echo "no JDK 25 found (JAVA_HOME or /usr/lib/jvm/*25*)" >&2
exit 1
