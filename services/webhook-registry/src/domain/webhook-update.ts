import { isDeepStrictEqual } from "node:util";
import type { StandInRequest } from "@cardhold/contracts";
import { AppError } from "@cardhold/platform";

/** What PUT /webhooks/:id may change (everything but the signing key and the status). */
export interface WebhookSettings {
  name: string;
  description: string | null;
  url: string;
  events: string[];
  apiVersion: string | null;
  timeoutDefault: "approve" | "decline" | null;
  metadata: Record<string, unknown>;
  signatureHeaders: string[];
  /** Stand-in rules for the captures this webhook decides (a program's own win); null: none. */
  standIn: StandInRequest | null;
}

/** Fields left out keep their value; only standIn may be set to null (removed). */
export type SettingsChange = Partial<{
  [K in keyof WebhookSettings]: K extends "standIn" ? WebhookSettings[K] : Exclude<WebhookSettings[K], null>;
}>;

/** The default webhook keeps its identity and takes every event; only these change. */
export const DEFAULT_WEBHOOK_EDITABLE = [
  "url",
  "description",
  "metadata",
  "timeoutDefault",
  "signatureHeaders",
  "standIn",
] as const;

/** The fields of `change` that differ from `current` (a field sent with its current value is no change). */
export function changedFields(current: WebhookSettings, change: SettingsChange): Array<keyof WebhookSettings> {
  return (Object.keys(change) as Array<keyof WebhookSettings>).filter(
    (field) => change[field] !== undefined && !isDeepStrictEqual(change[field], current[field]),
  );
}

/** 422 (invalid-state) naming each field the default webhook may not change; passes for other webhooks. */
export function checkUpdateAllowed(isDefault: boolean, current: WebhookSettings, change: SettingsChange): void {
  if (!isDefault) return;
  const editable: readonly string[] = DEFAULT_WEBHOOK_EDITABLE;
  const refused = changedFields(current, change).filter((field) => !editable.includes(field));
  if (refused.length === 0) return;
  const message =
    "the default webhook may change only its url, description, metadata, timeoutDefault, signatureHeaders and standIn";
  throw new AppError(
    422,
    "invalid-state",
    `The default webhook's ${refused.join(", ")} cannot change`,
    refused.map((path) => ({ path, message })),
  );
}

/** The settings after a partial update: fields left out keep their value. */
export function applyChange(current: WebhookSettings, change: SettingsChange): WebhookSettings {
  const next = { ...current };
  for (const field of Object.keys(change) as Array<keyof WebhookSettings>) {
    if (change[field] !== undefined) (next as Record<string, unknown>)[field] = change[field];
  }
  return next;
}
