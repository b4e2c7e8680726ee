# Shared by start.sh and stop.sh (sourced, not executed). Expects KAFKA_DIR to be set.
KAFKA_LIB="$KAFKA_DIR/lib"
KAFKA_DATA="$KAFKA_DIR/data"
KAFKA_LOGS="$KAFKA_DIR/logs"
KAFKA_PIDFILE="$KAFKA_DIR/kafka.pid"
KAFKA_PROPS="$KAFKA_DATA/server.properties"   # generated on every start; data/ is git-ignored

# Prints the pid of the broker started from this directory, or nothing.
# The pid file is authoritative; if it is missing or stale we fall back to matching the exact
# command line (main class + this directory's server.properties), never a broad name.
kafka_running_pid() {
  local pid=""
  if [[ -f "$KAFKA_PIDFILE" ]]; then
    pid="$(tr -dc '0-9' <"$KAFKA_PIDFILE" || true)"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
      local args
      args="$(ps -p "$pid" -o args= 2>/dev/null || true)"
      if [[ "$args" == *"kafka.Kafka $KAFKA_PROPS"* ]]; then
        echo "$pid"
        return 0
      fi
    fi
  fi
  if command -v pgrep >/dev/null 2>&1; then
    pid="$(pgrep -f -- "kafka\.Kafka $KAFKA_PROPS\$" 2>/dev/null | head -n 1 || true)"
    if [[ -n "$pid" ]]; then
      echo "$pid"
      return 0
    fi
  fi
  return 0
}
