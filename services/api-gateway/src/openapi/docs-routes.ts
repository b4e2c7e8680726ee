import type { Express } from "express";
import { scalarBundle } from "./docs-assets";
import { docsPage } from "./docs-page";

/** As strict as Scalar allows: its own script only, and the styles it injects at run time. */
const DOCS_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const DOCS_HEADERS = {
  "content-security-policy": DOCS_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/** GET /docs, the API reference rendered in the browser by Scalar, and the Scalar bundle it loads. */
export function docsRoutes(app: Express, doc: Record<string, unknown>): void {
  const bundle = scalarBundle();
  const page = docsPage(doc, bundle.url);
  app.get("/docs", (_req, res) => void res.set(DOCS_HEADERS).type("html").send(page));
  app.get(bundle.url, (_req, res) =>
    res.sendFile(bundle.file, { maxAge: "365d", immutable: true, headers: { "x-content-type-options": "nosniff" } }),
  );
}
