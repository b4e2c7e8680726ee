import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./document";

const SERVICES = fileURLToPath(new URL("../../../", import.meta.url));
/** Served by the gateway itself for people, not part of the API. */
const NOT_API = new Set(["get /docs", "get /openapi.json"]);
const ROUTE = /app\.(get|post|put|patch|delete)\(\s*"([^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every route a service declares with a literal path, as `method /path/{param}`. */
function declaredRoutes(): string[] {
  const routes = new Set<string>();
  for (const service of readdirSync(SERVICES)) {
    for (const file of sourceFiles(join(SERVICES, service, "src"))) {
      for (const [, method, path] of readFileSync(file, "utf8").matchAll(ROUTE)) {
        routes.add(`${method} ${path!.replace(/:(\w+)/g, "{$1}")}`);
      }
    }
  }
  return [...routes].filter((r) => !NOT_API.has(r)).sort();
}

describe("the OpenAPI document against the services' own routes", () => {
  it("documents every route a service declares (the paths are written by hand: this keeps them honest)", () => {
    const paths = openApiDocument().paths as Record<string, Record<string, unknown>>;
    const documented = (route: string) => {
      const [method, path] = route.split(" ") as [string, string];
      // Path parameter names may differ between the route and the document: compare the shapes.
      const shape = (p: string) => p.replace(/\{\w+\}/g, "{}");
      return Object.entries(paths).some(([p, ops]) => shape(p) === shape(path) && method in ops);
    };
    const routes = declaredRoutes();
    expect(routes.length).toBeGreaterThan(80);
    expect(routes.filter((r) => !documented(r))).toEqual([]);
  });
});
