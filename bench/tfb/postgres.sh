#!/usr/bin/env bash
# A throwaway PostgreSQL with the TechEmpower schema, for bench/tfb/run.sh and the db-service
# example's test: Debian's package (installed when missing), initdb into a fresh folder, its own
# port on 127.0.0.1 (and a Unix socket in that folder), stopped at the end.
#
#   bench/tfb/postgres.sh run [--cpus LIST] -- CMD [ARG...]
#       starts one, runs CMD with PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD and JDBC_URL set,
#       stops it and removes its folder when CMD ends (or this script is interrupted): a trap.
#   bench/tfb/postgres.sh start DIR [--cpus LIST] [--owner-pid PID]
#       starts one in DIR (a new or empty folder), prints "port=N" on stdout and writes DIR/env;
#       with --owner-pid a watchdog stops it as soon as process PID is gone (a test JVM that dies
#       leaves nothing running).
#   bench/tfb/postgres.sh stop DIR
#       stops the one in DIR and removes DIR.
#
# The schema is TechEmpower's (their toolset's create-postgres.sql): database hello_world, user
# benchmarkdbuser (password benchmarkdbpass), table World (id 1..10000, randomNumber random in
# 1..10000) and table Fortune with its 12 standard rows. Connections from 127.0.0.1 are trusted
# (a throwaway database on loopback). Settings as TechEmpower's: synchronous_commit off.
#
# initdb and postgres refuse to run as root: as root (CI) they run as the 'postgres' user (made by
# the Debian package; created here when missing), in a folder it owns.
# --cpus LIST pins the server and every backend it forks (taskset -c LIST).
set -euo pipefail

say() { echo "postgres.sh: $*" >&2; }
die() { say "$*"; exit 1; }

# ---- the binaries ---------------------------------------------------------------------------

apt_install() {
  say "installing the missing Debian package '$1' (apt-get install -y $1)"
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1
}

# The newest /usr/lib/postgresql/<version>/bin holding initdb (Debian keeps initdb and pg_ctl off
# PATH), else initdb on PATH.
find_bindir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | while read -r b; do [ -x "$b/initdb" ] && echo "$b"; done | tail -n 1)"
  if [ -z "$d" ] && command -v initdb >/dev/null 2>&1; then
    d="$(dirname "$(readlink -f "$(command -v initdb)")")"
  fi
  echo "$d"
}

bindir="$(find_bindir)"
if [ -z "$bindir" ]; then
  [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed and installing it needs root: apt-get install postgresql"
  apt_install postgresql || die "could not install PostgreSQL (apt-get install postgresql)"
  bindir="$(find_bindir)"
  [ -n "$bindir" ] || die "PostgreSQL was installed but no initdb was found under /usr/lib/postgresql/*/bin"
fi
for tool in initdb pg_ctl psql pg_isready; do
  [ -x "$bindir/$tool" ] || die "missing $bindir/$tool"
done

# as_owner CMD...: runs CMD as the user that owns the cluster (root cannot)
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

ensure_owner_user() {
  [ "$(id -u)" = 0 ] || return 0
  getent passwd postgres >/dev/null || useradd --system --no-create-home --shell /usr/sbin/nologin postgres \
    || die "running as root, and could not create a 'postgres' user for initdb"
}

# A port nothing listens on, below the ephemeral range (where no client socket can hold it).
free_port() {
  local p low
  low="$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
  for _ in $(seq 1 50); do
    p=$((10000 + RANDOM % (low - 10000)))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  die "no free port found"
}

# ---- start, stop ------------------------------------------------------------------------------

start() {  # start DIR CPUS OWNER_PID
  local dir="$1" cpus="$2" owner="$3" port pin=()
  mkdir -p "$dir"
  [ -z "$(ls -A "$dir")" ] || die "$dir is not empty"
  ensure_owner_user
  [ "$(id -u)" != 0 ] || chown postgres: "$dir"
  [ -z "$cpus" ] || pin=(taskset -c "$cpus")
  as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  cat >>"$dir/data/postgresql.conf" <<EOF
listen_addresses = '127.0.0.1'
unix_socket_directories = '$dir'
max_connections = 200
shared_buffers = 128MB
synchronous_commit = off
logging_collector = off
EOF
  # another process may take the port between the check and the bind: then another port
  local ctl attempt
  for attempt in 1 2 3 4 5; do
    port="$(free_port)"
    ctl=("$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -o "-p $port" -w -t 60 start)
    [ "$(id -u)" != 0 ] || ctl=(runuser -u postgres -- "${ctl[@]}")
    if "${pin[@]}" "${ctl[@]}" >/dev/null; then break; fi
    if [ "$attempt" = 5 ] || ! grep -q "Address already in use" "$dir/server.log"; then
      cat "$dir/server.log" >&2; die "the server did not start"
    fi
    say "port $port was taken meanwhile: trying another"
  done
  if [ -n "$owner" ]; then
    # the watchdog: stops the server once the owner is gone (or the server was stopped)
    setsid bash -c '
      while kill -0 "$1" 2>/dev/null && [ -f "$2/data/postmaster.pid" ]; do sleep 1; done
      if [ -f "$2/data/postmaster.pid" ]; then
        if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$3/pg_ctl" -D "$2/data" -m immediate stop; else "$3/pg_ctl" -D "$2/data" -m immediate stop; fi
        rm -rf "$2"
      fi' watchdog "$owner" "$dir" "$bindir" </dev/null >/dev/null 2>&1 &
  fi
  load_schema "$dir" "$port"
  cat >"$dir/env" <<EOF
PGHOST=127.0.0.1
PGPORT=$port
PGDATABASE=hello_world
PGUSER=benchmarkdbuser
PGPASSWORD=benchmarkdbpass
JDBC_URL=jdbc:postgresql://127.0.0.1:$port/hello_world
EOF
  echo "port=$port"
}

stop() {  # stop DIR
  local dir="$1"
  if [ -f "$dir/data/postmaster.pid" ]; then
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null 2>&1 \
      || as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

load_schema() {  # load_schema DIR PORT
  local dir="$1" port="$2"
  psql_super() { as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U postgres "$@"; }
  psql_super -d postgres <<'EOF' >/dev/null
CREATE ROLE benchmarkdbuser LOGIN PASSWORD 'benchmarkdbpass';
CREATE DATABASE hello_world OWNER benchmarkdbuser ENCODING 'UTF8' TEMPLATE template0;
EOF
  as_owner "$bindir/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "$port" -U benchmarkdbuser -d hello_world <<'EOF' >/dev/null
BEGIN;
CREATE TABLE World (
  id integer NOT NULL PRIMARY KEY,
  randomNumber integer NOT NULL DEFAULT 0
);
INSERT INTO World (id, randomNumber)
  SELECT n, least(floor(random() * 10000 + 1), 10000) FROM generate_series(1, 10000) AS n;
CREATE TABLE Fortune (
  id integer NOT NULL PRIMARY KEY,
  message varchar(2048) NOT NULL
);
INSERT INTO Fortune (id, message) VALUES
  (1, 'fortune: No such file or directory'),
  (2, 'A computer scientist is someone who fixes things that aren''t broken.'),
  (3, 'After enough decimal places, nobody gives a damn.'),
  (4, 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1'),
  (5, 'A computer program does what you tell it to do, not what you want it to do.'),
  (6, 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen'),
  (7, 'Any program that runs right is obsolete.'),
  (8, 'A list is only as strong as its weakest link. — Donald Knuth'),
  (9, 'Feature: A bug with seniority.'),
  (10, 'Computers make very fast, very accurate mistakes.'),
  (11, '<script>alert("This should not be displayed in a browser alert box.");</script>'),
  (12, 'フレームワークのベンチマーク');
COMMIT;
VACUUM ANALYZE World;
VACUUM ANALYZE Fortune;
EOF
}

# ---- the commands -----------------------------------------------------------------------------

cmd="${1:-}"; [ $# -gt 0 ] && shift
cpus=""; owner=""
case "$cmd" in
  start)
    [ $# -ge 1 ] || die "usage: postgres.sh start DIR [--cpus LIST] [--owner-pid PID]"
    dir="$1"; shift
    while [ $# -gt 0 ]; do
      case "$1" in
        --cpus) cpus="$2"; shift 2 ;;
        --owner-pid) owner="$2"; shift 2 ;;
        *) die "unknown option $1" ;;
      esac
    done
    start "$dir" "$cpus" "$owner" || { stop "$dir"; exit 1; }
    ;;
  stop)
    [ $# -eq 1 ] || die "usage: postgres.sh stop DIR"
    stop "$1"
    ;;
  run)
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
      case "$1" in
        --cpus) cpus="$2"; shift 2 ;;
        *) die "unknown option $1" ;;
      esac
    done
    [ "${1:-}" = -- ] && shift
    [ $# -gt 0 ] || die "usage: postgres.sh run [--cpus LIST] -- CMD [ARG...]"
    dir="$(mktemp -d /tmp/jasyncio-pg.XXXXXX)"
    trap 'stop "$dir"' EXIT
    trap 'exit 130' INT TERM
    start "$dir" "$cpus" "" >/dev/null
    set -a; . "$dir/env"; set +a
    say "PostgreSQL on 127.0.0.1:$PGPORT (folder $dir)"
    "$@"
    ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    [ "$cmd" = -h ] || [ "$cmd" = --help ] || exit 2
    ;;
esac
