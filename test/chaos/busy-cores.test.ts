import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startBusyCores } from "./busy-cores";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ProcessStat {
  pid: number;
  parent: number;
  state: string;
  /** user + system CPU, clock ticks */
  ticks: number;
}

function statOf(pid: number): ProcessStat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, state: fields[0]!, parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined; // gone
  }
}

const isBusyLoop = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("process.ppid");
  } catch {
    return false;
  }
};

/** The live (not zombie) busy loops `parent` started (tsx's own esbuild child is not one of them). */
const loopsOf = (parent: number) =>
  readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => statOf(Number(name)))
    .filter((s): s is ProcessStat => s !== undefined && s.parent === parent && s.state !== "Z" && isBusyLoop(s.pid));

const ended = (pid: number) => {
  const stat = statOf(pid);
  return stat === undefined || stat.state === "Z";
};

describe.runIf(process.platform === "linux")("busy cores for the chaos run", () => {
  it("keeps a core busy until stopped, then leaves no process behind", async () => {
    const stop = startBusyCores(1);
    await sleep(600);
    const loops = loopsOf(process.pid);
    expect(loops).toHaveLength(1);
    expect(loops[0]!.ticks).toBeGreaterThan(10); // over 100 ms of CPU in 600 ms
    await stop();
    expect(ended(loops[0]!.pid)).toBe(true);
  });

  it("a loop whose parent died ends itself", async () => {
    const script = `import(${JSON.stringify(`${__dirname}/busy-cores.ts`)}).then((m) => {
      m.startBusyCores(1);
      setTimeout(() => process.exit(0), 400);
    });`;
    const parent = spawn(process.execPath, ["--import", "tsx", "-e", script], { stdio: "ignore" });
    const exited = new Promise((r) => parent.once("exit", r));
    let loops: ProcessStat[] = [];
    for (let i = 0; i < 40 && loops.length === 0; i++) {
      await sleep(25);
      loops = loopsOf(parent.pid!);
    }
    expect(loops).toHaveLength(1);
    await exited;
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      await sleep(100);
      gone = ended(loops[0]!.pid);
    }
    expect(gone).toBe(true);
  });
});
