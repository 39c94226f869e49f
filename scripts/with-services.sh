#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL and redis-server on 127.0.0.1,
# installing them from Debian's packages when they are missing, then stops them.
# The command sees PARAWIRE_TEST_PG_URL and PARAWIRE_TEST_REDIS_URL.
set -euo pipefail

need_apt=()
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$pg_bin" ] && [ -x "$pg_bin/initdb" ] || need_apt+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
# The dashboard's end-to-end tests drive Debian's Chromium (never a downloaded browser).
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
# WordNet 3.0 database files for the overgen/rank generators' synonym source.
[ -f /usr/share/wordnet/index.noun ] || need_apt+=(wordnet-base)
# Apertium and its English-Spanish pair for the overgen/rank round-trip source.
command -v apertium >/dev/null 2>&1 || need_apt+=(apertium)
[ -f /usr/share/apertium/modes/eng-spa.mode ] || need_apt+=(apertium-eng-spa)
docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null 2>&1 \
  || need_apt+=(docker-compose)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "with-services: please install: ${need_apt[*]}" >&2; exit 1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
work=$(mktemp -d /tmp/parawire-services.XXXXXX)
chmod 755 "$work"
pg_port=$(free_port)
redis_port=$(free_port)

as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg_user=$( [ "$(id -u)" = 0 ] && echo postgres || id -un )

cleanup() {
  as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/pg"
[ "$(id -u)" = 0 ] && chown postgres "$work/pg"
as_pg "$pg_bin/initdb" -D "$work/pg" -U "$pg_user" -A trust >/dev/null
as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
  -o "-h 127.0.0.1 -p $pg_port -k $work/pg -c fsync=off" start >/dev/null
as_pg "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U "$pg_user" parawire_test

redis-server --bind 127.0.0.1 --port "$redis_port" --save "" --appendonly no \
  --daemonize yes --pidfile "$work/redis.pid" --dir "$work" --logfile "$work/redis.log"
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done

export PARAWIRE_TEST_PG_URL="postgresql+psycopg://$pg_user@127.0.0.1:$pg_port/parawire_test"
export PARAWIRE_TEST_REDIS_URL="redis://127.0.0.1:$redis_port"
export PARAWIRE_REQUIRE_SERVICES=1
set +e
"$@"
status=$?
set -e
exit $status
