// The console's part of the build step: apps/console (React, Vite) built in memory with Vite's build API, then
// written to apps/console/dist/ without a moment where a file the gateway serves is missing or half written.
import { Buffer } from "node:buffer";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const CONSOLE_ROOT = "apps/console";
const OUT_DIR = join(CONSOLE_ROOT, "dist");
const ASSETS_DIR = join(OUT_DIR, "assets");
/** An open page may still load a lazy chunk of the build it started from: old assets are kept this long. */
const STALE_ASSET_MS = 10 * 60 * 1000;

/**
 * Builds the console and returns its files' sizes. Assets are named by their content's hash, so each is written
 * beside the old ones (to a temporary name, then renamed: a concurrent build writes the same bytes); index.html,
 * which names them, is swapped in last by a rename. Old assets are pruned after STALE_ASSET_MS.
 */
export async function buildConsole() {
  // Vite keeps a NODE_ENV it finds (a test run's `test`), and React would then ship its development build.
  process.env.NODE_ENV = "production";
  const { build } = await import("vite");
  const result = await build({
    configFile: join(CONSOLE_ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { write: false },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  const files = outputs.map((o) => ({
    path: resolve(OUT_DIR, o.fileName),
    contents: o.type === "chunk" ? o.code : o.source,
  }));
  await mkdir(ASSETS_DIR, { recursive: true });
  const page = files.filter((f) => f.path === resolve(OUT_DIR, "index.html"));
  for (const file of [...files.filter((f) => !page.includes(f)), ...page]) await replaceFile(file);
  await pruneAssets(new Set(files.map((f) => f.path)));
  return sizes(files);
}

async function replaceFile({ path, contents }) {
  await mkdir(dirname(path), { recursive: true });
  const next = `${path}.${process.pid}.next`;
  await writeFile(next, contents);
  await rename(next, path);
}

async function pruneAssets(current) {
  const now = Date.now();
  for (const name of await readdir(ASSETS_DIR)) {
    const path = resolve(ASSETS_DIR, name);
    if (current.has(path)) continue;
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_ASSET_MS) await rm(path, { force: true });
  }
}

/** Bytes of the JavaScript and CSS a first visit downloads, raw and gzip-compressed. */
function sizes(files) {
  const loaded = files.filter((f) => /\.(js|css|html)$/.test(f.path));
  const bytes = (f) => Buffer.byteLength(f.contents);
  return {
    files: files.length,
    bytes: loaded.reduce((n, f) => n + bytes(f), 0),
    gzipBytes: loaded.reduce((n, f) => n + gzipSync(f.contents, { level: 9 }).length, 0),
  };
}
