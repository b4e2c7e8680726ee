import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { processTree, readCpu } from "../../bench/support/process-cpu";
import { startBusyCores } from "./busy-cores";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A live busy loop: its command line names the parent check (a zombie's, or a gone process's, reads empty). */
const isBusyLoop = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("process.ppid");
  } catch {
    return false;
  }
};

/** The busy loops `parent` started (tsx's own esbuild child is not one of them). */
const loopsOf = (parent: number) => processTree(parent).filter((pid) => pid !== parent && isBusyLoop(pid));

describe.runIf(process.platform === "linux")("busy cores for the chaos run", () => {
  it("keeps a core busy until stopped, then leaves no process behind", async () => {
    const stop = startBusyCores(1);
    await sleep(600);
    const loops = loopsOf(process.pid);
    expect(loops).toHaveLength(1);
    expect(readCpu({ loop: () => loops }).loop).toBeGreaterThan(100); // ms of CPU in 600 ms
    await stop();
    expect(isBusyLoop(loops[0]!)).toBe(false);
  });

  it("a loop whose parent died ends itself", async () => {
    const script = `import(${JSON.stringify(`${__dirname}/busy-cores.ts`)}).then((m) => {
      m.startBusyCores(1);
      setTimeout(() => process.exit(0), 400);
    });`;
    const parent = spawn(process.execPath, ["--import", "tsx", "-e", script], { stdio: "ignore" });
    const exited = new Promise((r) => parent.once("exit", r));
    let loops: number[] = [];
    for (let i = 0; i < 40 && loops.length === 0; i++) {
      await sleep(25);
      loops = loopsOf(parent.pid!);
    }
    expect(loops).toHaveLength(1);
    await exited;
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      await sleep(100);
      gone = !isBusyLoop(loops[0]!);
    }
    expect(gone).toBe(true);
  });
});
