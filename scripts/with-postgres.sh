#!/usr/bin/env bash
# Runs a command with throwaway PostgreSQL clusters: installs the server
# from the distribution's packages when it is missing, starts a cluster in a
# temp folder listening only on a Unix socket (TODOKIT_TEST_POSTGRES_URL)
# and one that takes only TLS connections on a loopback port
# (TODOKIT_TEST_POSTGRES_TLS_URL, verify-full against a throwaway CA,
# TODOKIT_TEST_POSTGRES_TLS_CA), runs the command, and stops them.
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
  [ -d "$DIR/tls-data" ] && { as_pg "$PGBIN/pg_ctl" -D "$DIR/tls-data" -m fast stop >/dev/null 2>&1 || true; }
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

# A second cluster that takes TLS connections only (as a managed database
# does), on a free loopback port, with a throwaway CA and a certificate for
# localhost signed by it.
TLS="$DIR/tls"
mkdir -p "$TLS"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
  -subj "/CN=todokit test CA" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign" -keyout "$TLS/ca.key" -out "$TLS/ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
  -keyout "$TLS/server.key" -out "$TLS/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n' > "$TLS/ext"
openssl x509 -req -in "$TLS/server.csr" -CA "$TLS/ca.pem" -CAkey "$TLS/ca.key" -CAcreateserial -days 2 \
  -extfile "$TLS/ext" -out "$TLS/server.crt" 2>/dev/null
chmod 600 "$TLS/server.key"
[ "$(id -u)" = 0 ] && chown -R postgres "$TLS"
TLS_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_pg "$PGBIN/initdb" -D "$DIR/tls-data" -A trust -U todokit >/dev/null
printf 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n' > "$DIR/tls-data/pg_hba.conf"
as_pg "$PGBIN/pg_ctl" -D "$DIR/tls-data" -l "$DIR/tls-server.log" -w \
  -o "-p $TLS_PORT -k $DIR -c listen_addresses=127.0.0.1 -c ssl=on -c ssl_cert_file=$TLS/server.crt \
      -c ssl_key_file=$TLS/server.key" start >/dev/null
as_pg "$PGBIN/createdb" -h "$DIR" -p "$TLS_PORT" -U todokit todokit_test
export TODOKIT_TEST_POSTGRES_TLS_URL="postgresql://todokit@localhost:$TLS_PORT/todokit_test?sslmode=verify-full&sslrootcert=${TLS//\//%2F}%2Fca.pem"
export TODOKIT_TEST_POSTGRES_TLS_CA="$TLS/ca.pem"
"$@"
