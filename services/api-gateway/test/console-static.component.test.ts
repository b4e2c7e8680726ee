import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findConsoleDir } from "../src/console/console-dir";
import { CONSOLE_CSP, NOT_BUILT_MESSAGE } from "../src/console/static-routes";
import { fakeConsoleBuild, startConsoleGateway, type ConsoleGateway } from "./console-support";

let built: ConsoleGateway;
let notBuilt: ConsoleGateway;
let dir: string;

beforeAll(async () => {
  dir = fakeConsoleBuild();
  built = await startConsoleGateway({ consoleDir: dir });
  notBuilt = await startConsoleGateway({ consoleDir: join(dir, "missing") });
});
afterAll(async () => {
  await built?.stop();
  await notBuilt?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function expectSecurityHeaders(headers: Headers) {
  expect(headers.get("content-security-policy")).toBe(CONSOLE_CSP);
  expect(headers.get("x-content-type-options")).toBe("nosniff");
  expect(headers.get("referrer-policy")).toBe("no-referrer");
}

describe("the console's page and assets", () => {
  it("serves index.html at /console and for any unknown path under it (the app routes itself), never cached", async () => {
    for (const path of ["/console", "/console/", "/console/authorizations/c.auth.1", "/console/developers/keys"]) {
      const res = await built.call("GET", path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(res.body, path).toContain('<div id="root">');
      expect(res.headers.get("cache-control"), path).toBe("no-cache");
      expectSecurityHeaders(res.headers);
    }
  });

  it("has a strict CSP: scripts from itself only, no framing", () => {
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("script-src 'self'");
    expect(CONSOLE_CSP).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONSOLE_CSP).toContain("frame-ancestors 'none'");
  });

  it("serves hashed assets with a year's immutable caching, and 404 for an asset that does not exist", async () => {
    const res = await built.call("GET", "/console/assets/index-abc123.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.body).toContain('console.log("console")');
    expectSecurityHeaders(res.headers);

    const missing = await built.call("GET", "/console/assets/index-gone.js");
    expect(missing.status).toBe(404);
    expect(missing.body).not.toContain("<div");
  });

  it("serves the build's other files, and nothing outside it", async () => {
    expect((await built.call("GET", "/console/favicon.svg")).body).toContain("<svg");
    const escape = await built.call("GET", "/console/assets/..%2f..%2fetc%2fpasswd");
    expect(escape.body).not.toContain("root:");
    const dotted = await built.call("GET", "/console/%2e%2e/%2e%2e/package.json");
    expect(dotted.body).not.toContain('"name"');
  });

  it("does not serve the page for /console/api paths or for writes", async () => {
    expect((await built.call("GET", "/console/api/nothing")).status).toBe(401);
    expect((await built.call("POST", "/console/whatever", { body: {} })).status).toBe(401);
  });

  it("answers 503 with what to run when the console is not built", async () => {
    for (const path of ["/console", "/console/cards", "/console/assets/index-abc123.js"]) {
      const res = await notBuilt.call("GET", path);
      expect(res.status, path).toBe(503);
      expect(res.body).toBe(NOT_BUILT_MESSAGE);
      expect(res.body).toContain("npm run build");
      expectSecurityHeaders(res.headers);
    }
  });

  it("finds apps/console/dist of the repository from the gateway's sources and from a bundle's directory", () => {
    const repo = fileURLToPath(new URL("../../..", import.meta.url));
    expect(findConsoleDir()).toBe(join(repo, "apps/console/dist"));
    expect(findConsoleDir(join(repo, "apps/cli/dist/chunks"))).toBe(join(repo, "apps/console/dist"));
    expect(findConsoleDir(join(repo, "services/api-gateway/dist"))).toBe(join(repo, "apps/console/dist"));
    expect(findConsoleDir("/")).toBeUndefined();
  });
});
