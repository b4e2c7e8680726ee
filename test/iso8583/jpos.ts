/**
 * jPOS as the card network, for the ISO 8583 integration test: test/iso8583/jpos-client (a small Java program, built by
 * Maven from Maven Central in the test's setup, cached in its git-ignored target/) packs, frames and reads every byte;
 * this side only says what to send and matches answers to requests by STAN (11) and RRN (37).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const CLIENT_DIR = fileURLToPath(new URL("./jpos-client/", import.meta.url));
const SOURCE = `${CLIENT_DIR}src/main/java/dev/cardhold/iso8583/JposClient.java`;
const CLASS = `${CLIENT_DIR}target/classes/dev/cardhold/iso8583/JposClient.class`;

/** A message as the Java side reads and prints it: fields by number, binary ones as hex. */
export interface JposMessage {
  mti: string;
  fields: Record<string, string>;
}

const onPath = (command: string, versionFlag: string) => {
  try {
    execFileSync(command, [versionFlag], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** Why the jPOS tests cannot run here (no java or mvn), or undefined when they can. */
export function jposUnavailable(): string | undefined {
  const missing = [...(onPath("java", "-version") ? [] : ["java"]), ...(onPath("mvn", "-v") ? [] : ["mvn"])];
  return missing.length > 0 ? `${missing.join(" and ")} not on PATH` : undefined;
}

const upToDate = () =>
  existsSync(CLASS) &&
  existsSync(`${CLIENT_DIR}target/lib`) &&
  readdirSync(`${CLIENT_DIR}target/lib`).some((jar) => jar.startsWith("jpos-")) &&
  statSync(CLASS).mtimeMs >= Math.max(statSync(SOURCE).mtimeMs, statSync(`${CLIENT_DIR}pom.xml`).mtimeMs);

/** Compiles the client and fetches jPOS (once: a build newer than its sources is kept). */
export function buildJposClient(): void {
  if (upToDate()) return;
  execFileSync(
    "mvn",
    ["-B", "-q", "-Dstyle.color=never", "-f", `${CLIENT_DIR}pom.xml`, "compile", "dependency:copy-dependencies"],
    { stdio: ["ignore", "inherit", "inherit"], timeout: 300_000 },
  );
}

export interface JposClient {
  /** Sends through jPOS; resolves with jPOS's reading of the answer that carries the same STAN and RRN. */
  request(message: JposMessage, timeoutMs?: number): Promise<JposMessage>;
  close(): Promise<void>;
}

const keyOf = (m: JposMessage) => `${m.fields["11"] ?? ""}|${m.fields["37"] ?? ""}`;

/** Starts the Java client connected to host:port; resolves once jPOS says it is connected. */
export function startJposClient(host: string, port: number): Promise<JposClient> {
  const child: ChildProcess = spawn(
    "java",
    ["-cp", `target/classes:target/lib/*`, "dev.cardhold.iso8583.JposClient", host, String(port)],
    {
      cwd: CLIENT_DIR,
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const waiting = new Map<string, Array<(m: JposMessage) => void>>();
  return new Promise((resolve, reject) => {
    const failed = (why: string) => reject(new Error(`jPOS client: ${why}\n${stderr}`));
    child.once("exit", (code) => failed(`exited with ${code}`));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const printed = JSON.parse(line) as JposMessage & { ready?: boolean; closed?: string };
      if (printed.ready) resolve(client(child, waiting));
      else if (printed.mti) {
        const key = keyOf(printed);
        const next = waiting.get(key)?.shift();
        if (next) next(printed);
      }
    });
    setTimeout(() => failed("not connected in 30 s"), 30_000).unref();
  });
}

function client(child: ChildProcess, waiting: Map<string, Array<(m: JposMessage) => void>>): JposClient {
  return {
    request(message, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const key = keyOf(message);
        const timer = setTimeout(() => reject(new Error(`jPOS: no answer to ${message.mti} ${key}`)), timeoutMs);
        waiting.set(key, [
          ...(waiting.get(key) ?? []),
          (answer) => {
            clearTimeout(timer);
            resolve(answer);
          },
        ]);
        child.stdin!.write(`${JSON.stringify(message)}\n`);
      });
    },
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin!.end();
        setTimeout(() => child.kill("SIGKILL"), 3_000).unref();
      }),
  };
}
