#!/usr/bin/env bash
# Stops the broker started by start.sh: SIGTERM (controlled shutdown), bounded wait, then SIGKILL.
# Exits 0 if nothing runs. KAFKA_WIPE=1 also deletes infra/kafka/data/ (topics, offsets, cluster id).
# Env: KAFKA_STOP_TIMEOUT (30 s).
set -euo pipefail

KAFKA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$KAFKA_DIR/common.sh"

STOP_TIMEOUT="${KAFKA_STOP_TIMEOUT:-30}"
log() { echo "[kafka] $*"; }

pid="$(kafka_running_pid)"
if [[ -z "$pid" ]]; then
  log "not running"
else
  log "stopping pid $pid (SIGTERM, up to ${STOP_TIMEOUT}s)"
  kill -TERM "$pid" 2>/dev/null || true
  deadline=$((SECONDS + STOP_TIMEOUT))
  while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.5; done
  if kill -0 "$pid" 2>/dev/null; then
    log "still alive after ${STOP_TIMEOUT}s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  log "stopped"
fi
rm -f "$KAFKA_PIDFILE"

if [[ "${KAFKA_WIPE:-0}" == "1" ]]; then
  rm -rf "$KAFKA_DIR/data"
  log "wiped $KAFKA_DIR/data"
fi
exit 0
