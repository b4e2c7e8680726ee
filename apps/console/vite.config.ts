import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * The console: a single-page app served by the api-gateway at /console (same origin as the API). Everything it
 * needs is bundled here (no CDN); file names carry their content's hash, so the gateway may cache them for a year.
 * scripts/build.mjs builds it with `outDir` pointed at a temporary directory, then renames that to dist/.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: "assets",
    target: "es2022",
    sourcemap: false,
  },
});
