type Json = Record<string, unknown>;

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function operationHtml(path: string, method: string, op: Json): string {
  const params = (op.parameters as Json[] | undefined) ?? [];
  const body = (op.requestBody as { content?: { "application/json"?: { schema?: unknown } } } | undefined)?.content?.[
    "application/json"
  ]?.schema;
  const responses = Object.entries((op.responses as Record<string, Json>) ?? {});
  return `<section>
  <h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${escape(path)}</code></h3>
  <p>${escape(String(op.summary ?? ""))}</p>
  ${params.length ? `<table><tr><th>parameter</th><th>in</th><th>description</th></tr>${params
    .map((p) => `<tr><td><code>${escape(String(p.name))}</code></td><td>${escape(String(p.in))}</td><td>${escape(String(p.description ?? ""))}</td></tr>`)
    .join("")}</table>` : ""}
  ${body ? `<details><summary>Request body schema</summary><pre>${escape(JSON.stringify(body, null, 2))}</pre></details>` : ""}
  <ul>${responses.map(([status, r]) => `<li><b>${status}</b> ${escape(String(r.description ?? ""))}</li>`).join("")}</ul>
</section>`;
}

/** A readable, dependency-free reference page rendered from the OpenAPI document. */
export function docsPage(doc: Json): string {
  const info = doc.info as { title: string; version: string; description: string };
  const paths = Object.entries(doc.paths as Record<string, Record<string, Json>>);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(info.title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
section{border-top:1px solid #ddd;padding:.5rem 0}.m{display:inline-block;min-width:4rem;padding:.1rem .4rem;border-radius:4px;color:#fff;font-size:.8rem;text-align:center}
.get{background:#2b7}.post{background:#27b}.put{background:#b72}.delete{background:#b33}table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left}
pre{background:#f6f6f6;padding:.5rem;overflow:auto;font-size:.8rem}</style></head><body>
<h1>${escape(info.title)} <small>${escape(info.version)}</small></h1><p>${escape(info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1)</p>
${paths.flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => operationHtml(path, method, op))).join("\n")}
</body></html>`;
}
