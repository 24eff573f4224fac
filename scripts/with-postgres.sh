#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster: installs the server
# from the distribution's packages when it is missing, starts a cluster in a
# temp folder listening only on a Unix socket, exports
# TODOKIT_TEST_POSTGRES_URL, runs the command, and stops the cluster.
set -euo pipefail

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

PGBIN=$(find_bin)
if [ -z "$PGBIN" ]; then
  echo "with-postgres: installing PostgreSQL from the distribution's packages" >&2
  if [ "$(id -u)" != 0 ]; then SUDO=sudo; else SUDO=; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
  PGBIN=$(find_bin)
fi
[ -n "$PGBIN" ] || { echo "with-postgres: no PostgreSQL server binaries found" >&2; exit 1; }

# The server refuses to run as root: as root, run it as the postgres user.
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
  as_pg() { runuser -u postgres -- "$@"; }
else
  as_pg() { "$@"; }
fi

DIR=$(mktemp -d /tmp/todokit-pg.XXXXXX)
chmod 755 "$DIR"
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
PORT=${TODOKIT_TEST_POSTGRES_PORT:-55432}

stop() {
  as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT

as_pg "$PGBIN/initdb" -D "$DIR/data" -A trust -U todokit >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses='' -c fsync=on" start >/dev/null
as_pg "$PGBIN/createdb" -h "$DIR" -p "$PORT" -U todokit todokit_test

# A URL, so that the CLI's `--store` takes it too; the socket folder is the
# percent-encoded host.
export TODOKIT_TEST_POSTGRES_URL="postgresql://todokit@${DIR//\//%2F}:$PORT/todokit_test"
echo "with-postgres: PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') at $DIR (port $PORT)" >&2
"$@"
