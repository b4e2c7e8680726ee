import { processIo } from "./cli-io";
import { runCommand } from "./commands";

/**
 * Ctrl-C and SIGTERM abort the signal: a --follow loop, listen or dev stops cleanly. npm and tsx pass a terminal's
 * Ctrl-C on as well, so a second signal within a second is the same one; a later one exits at once.
 */
function abortOnSignals(): AbortController {
  const controller = new AbortController();
  let abortedAt = 0;
  const interrupt = () => {
    if (!abortedAt) {
      abortedAt = Date.now();
      return controller.abort();
    }
    if (Date.now() - abortedAt > 1_000) process.exit(130);
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  return controller;
}

const controller = abortOnSignals();
process.exitCode = await runCommand(process.argv.slice(2), processIo(controller.signal));
