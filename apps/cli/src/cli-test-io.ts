import type { CliIo } from "./cli-io";

/** A CliIo for tests: collects what a command prints. */
export function captureIo(env: Record<string, string | undefined> = {}, signal?: AbortSignal) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const io: CliIo = { stdout: (line) => void stdout.push(line), stderr: (line) => void stderr.push(line), env, signal };
  return { io, stdout, stderr, out: () => stdout.join("\n"), err: () => stderr.join("\n") };
}
