const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The API reference: Scalar's renderer (bundled from npm, served by us at /docs/scalar.js, so the
 * page loads nothing from elsewhere) over /v1/openapi.json, with "try it" sending the bearer key
 * the reader types to this same origin. Default fonts are off: they would come from Scalar's CDN.
 */
export function renderReferencePage(title: string): string {
  const config = {
    url: '/v1/openapi.json',
    withDefaultFonts: false,
    hideClientButton: false,
    hideDownloadButton: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    defaultOpenAllTags: true,
    showToolbar: 'never',
    showDeveloperTools: 'never',
    authentication: { preferredSecurityScheme: 'bearerAuth' },
    metaData: { title },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}</style>
</head>
<body>
<noscript>The reference needs JavaScript. The OpenAPI document is at <a href="/v1/openapi.json">/v1/openapi.json</a>; the error catalogue at <a href="/docs/errors">/docs/errors</a>.</noscript>
<nav style="padding:.5rem 1rem;font-size:.9rem;border-bottom:1px solid #e3e3ea">Guides, one per operation with runnable examples: <a href="/docs/guides">/docs/guides</a> · <a href="/docs/errors">Error catalogue</a></nav>
<div id="app"></div>
<script src="/docs/scalar.js"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(config)});</script>
</body>
</html>`;
}
