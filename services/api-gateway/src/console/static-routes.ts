/**
 * The console's page and assets at /console (not /console/api): the built single-page app, index.html for any other
 * path under /console (the app routes itself), assets by their content-hashed names with a year's immutable caching.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import express, { type Express, type NextFunction, type Request, type Response } from "express";

/**
 * Scripts and styles only from our own files (none inline; uPlot and React set styles through the CSSOM, which
 * style-src does not govern), no framing, no plugins; the API is same-origin.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const NOT_BUILT_MESSAGE =
  "The console is not built: run `npm run build` (it writes apps/console/dist), then reload this page.\n";

const READS = new Set(["GET", "HEAD"]);

function securityHeaders(res: Response) {
  res.setHeader("Content-Security-Policy", CONSOLE_CSP);
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Frame-Options", "DENY");
}

const isApiPath = (path: string) => path === "/api" || path.startsWith("/api/");
const isAssetPath = (path: string) => path.startsWith("/assets/");

function notBuilt(res: Response) {
  res.status(503).type("text/plain").setHeader("Cache-Control", "no-store");
  res.send(NOT_BUILT_MESSAGE);
}

/** `dir`: the built app (apps/console/dist); undefined or without index.html: every page answers 503. */
export function consoleStaticRoutes(app: Express, dir: string | undefined): void {
  const built = () => dir !== undefined && existsSync(join(dir, "index.html"));
  const assets = express.static(join(dir ?? ".", "assets"), { index: false, immutable: true, maxAge: "365d" });
  const rootFiles = express.static(dir ?? ".", {
    index: false,
    setHeaders: (res) => res.setHeader("Cache-Control", "no-cache"),
  });

  app.use("/console", (req: Request, res: Response, next: NextFunction) => {
    if (!READS.has(req.method) || isApiPath(req.path)) return next();
    securityHeaders(res);
    if (!built()) return notBuilt(res);
    const servePage = () => res.setHeader("Cache-Control", "no-cache").sendFile("index.html", { root: dir });
    if (isAssetPath(req.path)) {
      req.url = req.url.slice("/assets".length);
      return assets(req, res, () => res.status(404).type("text/plain").send("No such console asset\n"));
    }
    if (req.path === "/" || req.path === "/index.html") return servePage();
    rootFiles(req, res, servePage);
  });
}
