import { ensureBuilt } from "./build";

/** Builds once before the test files run (they run in parallel workers, which must not rebuild dist/ under each other). */
export default async function buildOnce(): Promise<void> {
  await ensureBuilt();
  process.env.CARDHOLD_BUILT = "1";
}
