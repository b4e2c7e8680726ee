// The build step: each service's main, the `cardhold` command and the wallet receiver bundled with esbuild into the package's dist/
// (ESM, Node 20, source maps). The workspace's own packages (@cardhold/*, which export TypeScript sources) are
// compiled into each bundle; every other package stays an import from node_modules. Then the web console (apps/console,
// Vite; scripts/build-console.mjs) into apps/console/dist/. Run: npm run build.
import { build } from "esbuild";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { buildConsole } from "./build-console.mjs";

const SERVICES = [
  "api-gateway",
  "customer-service",
  "bill-service",
  "webhook-registry",
  "authorization-engine",
  "event-dispatcher",
];

const TARGETS = [
  { entry: "apps/cli/src/main.ts", outdir: "apps/cli/dist" },
  ...SERVICES.map((service) => ({ entry: `services/${service}/src/main.ts`, outdir: `services/${service}/dist` })),
  { entry: "examples/wallet-receiver/src/main.ts", outdir: "examples/wallet-receiver/dist" },
];

/** Bare imports other than the workspace's own packages are left to Node (node_modules at run time). */
const externalDependencies = {
  name: "external-dependencies",
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@cardhold/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** Old chunks are kept this long: a process started from the previous build may still import one of them lazily. */
const STALE_CHUNK_MS = 10 * 60 * 1000;

/**
 * Builds in memory, then replaces the bundle without a moment where it is missing: chunks are content-hashed, so new
 * ones are written beside the old, and main.js is swapped in by a rename. Test runs and a running `npm start` may
 * build at the same time as another build or a process starting from dist/.
 */
async function buildTarget({ entry, outdir }) {
  const { outputFiles } = await build({
    entryPoints: [entry],
    outdir,
    bundle: true,
    splitting: true, // commands load what they need on demand (`cardhold --help` does not load the platform)
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: true,
    chunkNames: "chunks/[name]-[hash]",
    plugins: [externalDependencies],
    logLevel: "warning",
    write: false,
  });
  const entryFiles = new Set([join(resolve(outdir), "main.js"), join(resolve(outdir), "main.js.map")]);
  await mkdir(join(outdir, "chunks"), { recursive: true });
  const chunks = outputFiles.filter((f) => !entryFiles.has(f.path));
  // A chunk's name is its content's hash: one that exists already is this very file, maybe being read right now.
  await Promise.all(chunks.map((f) => writeFile(f.path, f.contents, { flag: "wx" }).catch(ignoreExisting)));
  const entries = outputFiles.filter((f) => entryFiles.has(f.path));
  for (const f of [
    ...entries.filter((e) => e.path.endsWith(".map")),
    ...entries.filter((e) => e.path.endsWith(".js")),
  ]) {
    const next = `${f.path}.${process.pid}.next`;
    await writeFile(next, f.contents);
    await rename(next, f.path);
  }
  await pruneChunks(join(outdir, "chunks"), new Set(chunks.map((f) => f.path)));
}

function ignoreExisting(error) {
  if (error.code !== "EEXIST") throw error;
}

async function pruneChunks(dir, current) {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = resolve(dir, name);
    if (current.has(path)) continue;
    const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_CHUNK_MS) await rm(path, { force: true });
  }
}

const startedAt = Date.now();
await Promise.all(TARGETS.map(buildTarget));
const consoleSize = await buildConsole();
if (!process.argv.includes("--quiet")) {
  console.log(`built ${TARGETS.length} bundles and the console in ${Date.now() - startedAt} ms`);
  console.log(`console: ${consoleSize.bytes} bytes of JS, CSS and HTML, ${consoleSize.gzipBytes} gzip-compressed`);
}
