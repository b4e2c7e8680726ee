// npm packs package.json as it is on disk, and npm (unlike pnpm) ignores `exports` in publishConfig. So `prepack`
// swaps in the published manifest (exports and types → dist) and `postpack` puts the workspace one back; the
// workspace keeps resolving the TypeScript source. `restore` also runs first, in case a pack died half-way.
import { copyFileSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

const MANIFEST = new URL("../package.json", import.meta.url);
const SAVED = new URL("../package.workspace.json", import.meta.url);

/** The manifest as published: the built ESM and its declarations, no workspace-only fields. */
export function publishManifest(pkg) {
  const { devDependencies: _dev, scripts: _scripts, ...published } = pkg;
  return {
    ...published,
    main: "./dist/index.js",
    types: "./dist/index.d.ts",
    exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" }, "./package.json": "./package.json" },
  };
}

function restore() {
  if (existsSync(SAVED)) renameSync(SAVED, MANIFEST);
}

const command = process.argv[2];
if (command === "publish") {
  restore();
  const pkg = JSON.parse(readFileSync(MANIFEST, "utf8"));
  copyFileSync(MANIFEST, SAVED);
  writeFileSync(MANIFEST, JSON.stringify(publishManifest(pkg), null, 2) + "\n");
} else if (command === "restore") {
  restore();
} else if (command === "print") {
  const saved = existsSync(SAVED) ? SAVED : MANIFEST;
  process.stdout.write(JSON.stringify(publishManifest(JSON.parse(readFileSync(saved, "utf8"))), null, 2) + "\n");
} else if (command !== undefined) {
  process.stderr.write("usage: node scripts/publish-manifest.mjs publish|restore|print\n");
  process.exit(2);
}
