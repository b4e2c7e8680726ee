/** Where a command writes, what it reads from the environment, and what stops it (Ctrl-C); tests pass their own. */
export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
  env: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export function processIo(signal?: AbortSignal): CliIo {
  return {
    stdout: (line) => void process.stdout.write(line + "\n"),
    stderr: (line) => void process.stderr.write(line + "\n"),
    env: process.env,
    signal,
  };
}

/** A wrong command line: the message and the command's usage go to stderr, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

/**
 * Results on stdout: readable lines, or with --json one JSON object per line. Progress goes to stderr and only in
 * readable mode, so a script reading stdout sees nothing but records.
 */
export interface Output {
  readonly json: boolean;
  result(line: string, record: unknown): void;
  progress(line: string): void;
  warn(line: string): void;
}

export function output(io: CliIo, json: boolean): Output {
  return {
    json,
    result: (line, record) => io.stdout(json ? JSON.stringify(record) : line),
    progress: (line) => {
      if (!json) io.stderr(line);
    },
    warn: (line) => io.stderr(line),
  };
}

/** Resolves after `ms`, or early (without throwing) when the signal aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Resolves when the signal aborts; never without one. */
export function untilAborted(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener("abort", () => resolve(), { once: true });
  });
}
