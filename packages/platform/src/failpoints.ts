/**
 * Failpoints let the integration suite kill a process at an exact step (e.g. between a database commit and the
 * Kafka publish) to prove nothing is lost. They are off unless CARDHOLD_FAILPOINTS names them.
 */
export function failpoint(name: string): void {
  const active = process.env.CARDHOLD_FAILPOINTS;
  if (!active) return;
  if (
    active
      .split(",")
      .map((s) => s.trim())
      .includes(name)
  ) {
    process.kill(process.pid, "SIGKILL");
  }
}
