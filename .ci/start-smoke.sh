#!/usr/bin/env bash
# The README's first command on this checkout as a newcomer runs it: `npm start`, with DATA_DIR given relative to the
# checkout as the default ./.data is, then the key it prints lists customers. Fails when the platform does not come
# up in 90 s. The data goes to a new directory the postgres account can pass through (as root, the embedded server
# runs as that account, and a clone may sit in a directory closed to it, such as one from mktemp -d).
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${SMOKE_PORT:-18080}"
data_parent="$(mktemp -d)"
chmod 0711 "$data_parent"
data_dir="$(realpath --relative-to=. "$data_parent")/data"
log="$(mktemp)"
# Its own process group, so that the stop reaches npm, tsx and the platform (as Ctrl-C does in a terminal).
PORT="$PORT" DATA_DIR="$data_dir" setsid npm start >"$log" 2>&1 &
pid=$!
cleanup() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 1; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -rf "$data_parent" "$log"
}
trap cleanup EXIT

key=""
for _ in $(seq 1 90); do
  kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "start-smoke: npm start exited" >&2; exit 1; }
  key="$(sed -n 's/^ *test key: \(sk\.test\.[A-Za-z0-9]*\).*/\1/p' "$log" | head -1)"
  [[ -n "$key" ]] && break
  sleep 1
done
[[ -n "$key" ]] || { cat "$log" >&2; echo "start-smoke: no test key printed within 90 s" >&2; exit 1; }
status="$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/customers" -H "Authorization: Bearer $key" || true)"
[[ "$status" == 200 ]] || { cat "$log" >&2; echo "start-smoke: GET /customers answered $status" >&2; exit 1; }
echo "start-smoke: npm start came up on a fresh DATA_DIR ($data_dir) and GET /customers answered 200"
