import { stateConflict } from "@cardhold/platform";

export type WebhookStatus = "created" | "enabled" | "disabled";
export type WebhookAction = "enable" | "disable";

/**
 * The webhook states of the interface: created → enabled (takes effect) ⇄ disabled (falls back to the default).
 * Enabling an enabled webhook, or disabling a disabled one, is idempotent: the same status comes back. A created
 * webhook was never in effect, so disabling it is refused. The default webhook is always enabled.
 */
const TRANSITIONS: Record<WebhookStatus, Partial<Record<WebhookAction, WebhookStatus>>> = {
  created: { enable: "enabled" },
  enabled: { enable: "enabled", disable: "disabled" },
  disabled: { enable: "enabled", disable: "disabled" },
};

/** The status after `action`, or a 422 (invalid-state) when the action is not allowed from `current`. */
export function nextStatus(current: WebhookStatus, action: WebhookAction, isDefault: boolean): WebhookStatus {
  if (isDefault) {
    throw stateConflict(`The default webhook cannot be ${action}d; it receives every event no enabled webhook covers`);
  }
  const next = TRANSITIONS[current][action];
  if (!next) throw stateConflict(`A ${current} webhook cannot be ${action}d; enable it first`);
  return next;
}
