import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/** A file served to the docs page: its URL carries a hash of its content, so browsers may cache it for a year. */
export interface DocsAsset {
  url: string;
  file: string;
}

/** Scalar's browser bundle, straight from node_modules: the docs page fetches nothing from a CDN. */
export function scalarBundle(): DocsAsset {
  // Resolved by package name, not by a path from this file, so a gateway bundled into dist/ still finds it.
  const file = createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js");
  const hash = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);
  return { url: `/docs/assets/scalar-api-reference.${hash}.js`, file };
}
