// The build step: each service's main, the `cardhold` command and the wallet receiver bundled with esbuild into the package's dist/
// (ESM, Node 20, source maps). The workspace's own packages (@cardhold/*, which export TypeScript sources) are
// compiled into each bundle; every other package stays an import from node_modules. Run: npm run build.
import { build } from "esbuild";
import { rm } from "node:fs/promises";

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

async function buildTarget({ entry, outdir }) {
  await rm(outdir, { recursive: true, force: true });
  await build({
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
  });
}

const startedAt = Date.now();
await Promise.all(TARGETS.map(buildTarget));
if (!process.argv.includes("--quiet")) console.log(`built ${TARGETS.length} bundles in ${Date.now() - startedAt} ms`);
