/**
 * Which deliveries may connect only to public addresses (SSRF protection, checked at connect time by
 * `delivery/target-guard.ts` with the shared range policy of `@cardhold/platform`): every live-mode delivery unless
 * the operator allows private targets (on-premise receivers). Test mode may reach anything, localhost included, for
 * local receivers. A mode other than `test` counts as live.
 */
export const connectsOnlyToPublicAddresses = (mode: string, allowPrivateTargets: boolean): boolean =>
  mode !== "test" && !allowPrivateTargets;
