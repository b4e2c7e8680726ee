// Packs @cardhold/receiver as it would be published, without touching the workspace: builds dist/ into a staging
// folder with the published manifest (publish-manifest.mjs) and the README, then `npm pack`s that folder.
//   node packages/receiver/scripts/pack.mjs [destination]   (default: the current directory)
// Prints the tarball's absolute path.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));
const destination = resolve(process.argv[2] ?? ".");
const staging = mkdtempSync(join(tmpdir(), "cardhold-receiver-pack-"));
try {
  const tsc = fileURLToPath(import.meta.resolve("typescript/bin/tsc"));
  execFileSync(process.execPath, [tsc, "-p", join(PACKAGE, "tsconfig.build.json"), "--outDir", join(staging, "dist")], {
    stdio: "inherit",
  });
  const manifest = execFileSync(process.execPath, [join(PACKAGE, "scripts", "publish-manifest.mjs"), "print"], {
    encoding: "utf8",
  });
  writeFileSync(join(staging, "package.json"), manifest);
  copyFileSync(join(PACKAGE, "README.md"), join(staging, "README.md"));
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", staging, "--json", "--pack-destination", destination], { encoding: "utf8" }),
  );
  process.stdout.write(join(destination, packed.filename) + "\n");
} finally {
  rmSync(staging, { recursive: true, force: true });
}
