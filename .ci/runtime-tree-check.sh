#!/usr/bin/env bash
# What the Docker image would hold, checked without a Docker engine (none runs here, so the image itself was never
# built): the runtime tree from scripts/runtime-tree.sh with production dependencies only must run `cardhold --help`,
# start `cardhold dev` serving /docs and the console, and start the wallet receiver. Then docker-compose.yml is validated with
# Debian's docker-compose (`config` needs no engine).
set -euo pipefail
cd "$(dirname "$0")/.."

tree="$(mktemp -d)"
chmod 0711 "$tree"
port="${RUNTIME_CHECK_PORT:-18090}"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  sleep 2
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  rm -rf "$tree"
}
trap cleanup EXIT

sh scripts/runtime-tree.sh "$tree"
(cd "$tree" && npm ci --omit=dev --no-audit --no-fund --prefer-offline >/dev/null)
# The root's development dependencies (typescript may come in as a peer of a runtime package, so it is not listed).
if [[ -d "$tree/node_modules/tsx" || -d "$tree/node_modules/vitest" || -d "$tree/node_modules/eslint" ]]; then
  echo "runtime-tree: development dependencies in the production tree" >&2; exit 1
fi
if find "$tree" -path "$tree/node_modules" -prune -o -name "*.ts" -print | grep -q .; then
  echo "runtime-tree: TypeScript sources in the production tree" >&2; exit 1
fi

(cd "$tree" && node apps/cli/bin/cardhold.mjs --help >/dev/null)

(cd "$tree" && PORT="$port" DATA_DIR="$tree/data" exec node apps/cli/bin/cardhold.mjs dev >"$tree/dev.log" 2>&1) &
pids+=($!)
(cd "$tree" && PORT=$((port + 1)) CARDHOLD_SIGNING_KEY=runtime-check DATA_DIR="$tree/wallet" exec node examples/wallet-receiver/dist/main.js >"$tree/wallet.log" 2>&1) &
pids+=($!)
for _ in $(seq 1 90); do
  docs=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/docs" || true)
  wallet=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$((port + 1))/health" || true)
  console=$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$port/console/" || true)
  [[ "$docs" == 200 && "$wallet" == 200 && "$console" == 200 ]] && break
  sleep 1
done
if [[ "$docs" != 200 || "$wallet" != 200 || "$console" != 200 ]]; then
  cat "$tree/dev.log" "$tree/wallet.log" >&2
  echo "runtime-tree: /docs answered $docs, /console/ $console, the wallet receiver's /health $wallet" >&2; exit 1
fi
echo "runtime-tree: production-only tree ran cardhold --help, cardhold dev (/docs and /console 200) and the wallet receiver"

INTERNAL_TOKEN=ci-internal-token OPERATOR_TOKEN=ci-operator-token CARD_DATA_KEY=0 SECRETS_KEY=0 \
  docker-compose -f docker-compose.yml --profile receiver config -q
echo "runtime-tree: docker-compose.yml is valid (docker-compose config; never run: no Docker engine here)"
