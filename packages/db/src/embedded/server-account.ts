import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";

export interface ServerAccount {
  uid: number;
  gid: number;
}

const idOf = (flag: "-u" | "-g", user: string) => Number(execFileSync("id", [flag, user], { encoding: "utf8" }).trim());

/**
 * The account the PostgreSQL server runs as. PostgreSQL refuses to run as root, so a root process runs it as the
 * `postgres` system account (created when missing, as a system user without a home or a login shell); any other
 * user runs it as themselves (undefined: no switch).
 */
export function serverAccount(): ServerAccount | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return { uid: idOf("-u", "postgres"), gid: idOf("-g", "postgres") };
  } catch {
    execFileSync("useradd", [
      "--system",
      "--user-group",
      "--no-create-home",
      "--shell",
      "/usr/sbin/nologin",
      "postgres",
    ]);
    return { uid: idOf("-u", "postgres"), gid: idOf("-g", "postgres") };
  }
}

/** The first directory above `path` that the account may not pass through, or undefined when it can reach `path`. */
export function closedAncestor(account: ServerAccount, path: string): string | undefined {
  for (let dir = dirname(resolve(path)); ; dir = dirname(dir)) {
    const { mode, uid, gid } = statSync(dir);
    const passes = uid === account.uid ? mode & 0o100 : gid === account.gid ? mode & 0o010 : mode & 0o001;
    if (!passes) return dir;
    if (dir === dirname(dir)) return undefined;
  }
}
