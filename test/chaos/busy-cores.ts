import { spawn } from "node:child_process";

/**
 * Child processes that each keep one core busy for as long as they live: a loaded machine made on purpose, so that
 * two trees can be compared under the load CI's machine sometimes brings (bench/README.md, "Thirty-first session").
 * Each loop ends itself once its parent is gone, so a run that dies leaves none behind. Returns a stop function.
 */
export function startBusyCores(count: number): () => Promise<void> {
  const loop = `const parent = ${process.pid};
    for (let i = 1; ; i++) if (i % 50_000_000 === 0 && process.ppid !== parent) process.exit(0);`;
  const children = Array.from({ length: count }, () => spawn(process.execPath, ["-e", loop], { stdio: "ignore" }));
  return async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGKILL");
          }),
      ),
    );
  };
}
