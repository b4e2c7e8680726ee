import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { cpuPerOperation, processTree, readCpu, threadCpuMs } from "./process-cpu";

/** A parent that starts a child burning `burnMs` of CPU and waits for it, then idles until killed. */
function parentOfBusyChild(burnMs: number) {
  const child = `const end = Date.now() + ${burnMs}; while (Date.now() < end);`;
  const parent = `
    const { spawn } = require("node:child_process");
    const c = spawn(process.execPath, ["-e", ${JSON.stringify(child)}], { stdio: "ignore" });
    console.log("started");
    c.on("exit", () => console.log("child exited"));
    setInterval(() => undefined, 1000);`;
  return spawn(process.execPath, ["-e", parent], { stdio: ["ignore", "pipe", "ignore"] });
}

describe("CPU per process group", () => {
  it("keeps the time of a process that exited between two readings (it moves to its parent)", async () => {
    const parent = parentOfBusyChild(400);
    const lines: string[] = [];
    parent.stdout.on("data", (d: Buffer) => lines.push(...d.toString().trim().split("\n")));
    try {
      while (!lines.includes("started")) await new Promise((r) => setTimeout(r, 10));
      const groups = { tree: () => processTree(parent.pid!) };
      const before = readCpu(groups);
      while (!lines.includes("child exited")) await new Promise((r) => setTimeout(r, 10));
      const after = readCpu(groups);
      // The child burned ~400 ms after the first reading (minus its start); none of it may be lost with its exit.
      expect(cpuPerOperation(before, after, 1).tree).toBeGreaterThan(250);
    } finally {
      parent.kill("SIGKILL");
      await once(parent, "exit");
    }
  });

  it("reads the CPU of a process's threads by name, and only theirs", async () => {
    const busy = spawn(
      process.execPath,
      [
        "-e",
        "const end = Date.now() + 400; while (Date.now() < end); console.log('done'); setInterval(() => {}, 1000)",
      ],
      { stdio: ["ignore", "pipe", "ignore"] },
    );
    try {
      await once(busy.stdout, "data");
      const mainThread = readFileSync(`/proc/${busy.pid}/task/${busy.pid}/comm`, "utf8").trim();
      const escaped = mainThread.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      expect(threadCpuMs(busy.pid!, new RegExp(`^${escaped}$`))).toBeGreaterThan(250);
      expect(threadCpuMs(busy.pid!, /^no thread is named this$/)).toBe(0);
    } finally {
      busy.kill("SIGKILL");
      await once(busy, "exit");
    }
  });
});
