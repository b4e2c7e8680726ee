import { stateConflict } from "@cardhold/platform";

export type WebhookStatus = "created" | "enabled" | "disabled";
export type WebhookAction = "enable" | "disable";

/**
 * The webhook states of the interface: created → enabled (takes effect) ⇄ disabled (falls back to the default).
 * Enabling an enabled webhook, or disabling a disabled one, changes nothing. The default webhook is always enabled.
 */
export function nextStatus(current: WebhookStatus, action: WebhookAction, isDefault: boolean): WebhookStatus {
  if (isDefault) throw stateConflict(`the default webhook cannot be ${action}d; it receives every event no enabled webhook covers`);
  return action === "enable" ? "enabled" : "disabled";
}

/** The default webhook keeps its name and takes every event; only its url, description, metadata and timeout change. */
export function checkDefaultUpdate(isDefault: boolean, change: { name?: string; events?: string[] }): void {
  if (isDefault && (change.name !== undefined || change.events !== undefined)) {
    throw stateConflict("the default webhook's name and events cannot change");
  }
}
