type Json = Record<string, unknown>;

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Scalar's options: everything that would reach scalar.com (fonts, telemetry, its AI agent, its hosted client) is off. */
const SCALAR_CONFIGURATION = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
};

/** What a reader without JavaScript (or curl) sees: every operation, and where the document is. */
function operationList(doc: Json): string {
  const paths = Object.entries(doc.paths as Record<string, Record<string, Json>>);
  const items = paths.flatMap(([path, ops]) =>
    Object.entries(ops).map(
      ([method, op]) => `<li>${method.toUpperCase()} ${escape(path)} — ${escape(String(op.summary ?? ""))}</li>`,
    ),
  );
  return `<p>This reference needs JavaScript; the OpenAPI document is <a href="/openapi.json">/openapi.json</a>.</p><ul>${items.join("")}</ul>`;
}

/** The API reference page: Scalar, served from `scriptUrl`, renders /openapi.json. */
export function docsPage(doc: Json, scriptUrl: string): string {
  const title = escape((doc.info as { title: string }).title);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="icon" href="data:,"></head>
<body><noscript>${operationList(doc)}</noscript>
<script id="api-reference" data-configuration="${escape(JSON.stringify(SCALAR_CONFIGURATION))}"></script>
<script src="${escape(scriptUrl)}"></script>
</body></html>`;
}
