import { execFileSync } from "node:child_process";

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
    execFileSync("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
    return { uid: idOf("-u", "postgres"), gid: idOf("-g", "postgres") };
  }
}
