/** A status word in a colour that says the same (the word is always there: colour is never the only cue). */
const TONES: Record<string, string> = {
  approved: "good",
  delivered: "good",
  enabled: "good",
  active: "good",
  declined: "bad",
  failed: "bad",
  blocked: "bad",
  terminated: "bad",
  revoked: "bad",
  reversed: "warn",
  pending: "warn",
  delivering: "warn",
  disabled: "neutral",
  created: "neutral",
  inactive: "neutral",
};

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${TONES[status] ?? "neutral"}`}>{status}</span>;
}
