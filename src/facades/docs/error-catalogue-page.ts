import { ERROR_DOCS, SUB_CODES, WARNING_DOCS, errorAnchor } from '../../domain/error-catalogue.js';
import { ERROR_CODES, ERROR_STATUS, isRetryable, type ErrorCode } from '../../domain/errors.js';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** `code` spans in the catalogue's prose, escaped first. */
const prose = (s: string) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>');

const GENERIC = { when: 'See the message and `param` of the error.', action: 'Retry only when `retryable` is true.' };

function entry(code: ErrorCode): string {
  const doc = ERROR_DOCS[code] ?? GENERIC;
  const retry = isRetryable(code) ? 'Yes, with backoff (after <code>Retry-After</code> when given).' : 'No: the same request gets the same answer.';
  const subs = Object.entries(SUB_CODES).filter(([, s]) => s.code === code);
  const subHtml = subs
    .map(([sub, s]) => `<section class="sub" id="${esc(errorAnchor(code, sub))}"><h3><a href="#${esc(errorAnchor(code, sub))}"><code>${esc(code)}</code> / <code>${esc(sub)}</code></a></h3><p>${prose(s.when)}</p></section>`)
    .join('');
  return `<section class="code" id="${esc(errorAnchor(code))}">
<h2><a href="#${esc(errorAnchor(code))}"><code>${esc(code)}</code></a> <span class="status">HTTP ${ERROR_STATUS[code]}</span></h2>
<dl><dt>When</dt><dd>${prose(doc.when)}</dd><dt>Retry?</dt><dd>${retry}</dd><dt>What to do</dt><dd>${prose(doc.action)}</dd></dl>
${subHtml}</section>`;
}

/**
 * The error catalogue at /docs/errors, generated from the error table (errors.ts) and its
 * descriptions (error-catalogue.ts): one section per code and per sub-code, each with the id a
 * `docUrl` points at, so every link lands on its own entry.
 */
export function renderErrorCatalogue(): string {
  const index = ERROR_CODES.map((c) => `<li><a href="#${esc(c)}"><code>${esc(c)}</code></a> ${ERROR_STATUS[c]}</li>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Error catalogue · Accommodation Data Service</title>
<style>
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:860px;margin:0 auto;padding:1rem 1.25rem 40vh;color:#1d1d1f}
code{font:0.92em ui-monospace,SFMono-Regular,Menlo,monospace;background:#f2f2f5;padding:0 .25em;border-radius:3px;overflow-wrap:anywhere}
h1{font-size:1.6rem}h2{font-size:1.25rem;margin:0 0 .4rem}h3{font-size:1rem;margin:.2rem 0}
a{color:#0b57d0;text-decoration:none}h2 a,h3 a{color:inherit}
.code{border-top:1px solid #ddd;padding:1rem 0}.sub{margin:.6rem 0 0 1rem;padding-left:.75rem;border-left:3px solid #e3e3ea}
.status{font-size:.8rem;color:#555;background:#eef;border-radius:3px;padding:.1rem .4rem;margin-left:.4rem;white-space:nowrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.3rem 0}dt{font-weight:600}dd{margin:0}
ul.index{columns:2 16rem;padding-left:1.1rem}
:target{background:#fff7d6;border-radius:4px}
@media (max-width:600px){dl{grid-template-columns:1fr}dt{margin-top:.4rem}.sub{margin-left:0}}
</style>
</head>
<body>
<p><a href="/docs">← API reference</a></p>
<h1>Error catalogue</h1>
<p>Every error answers <code>{ "error": { code, subCode?, message, param?, requestId, retryable, docUrl } }</code>. <code>docUrl</code> links to the entry of its code, or of its sub-code, below. Failed calls are never charged.</p>
<ul class="index">${index}</ul>
${ERROR_CODES.map(entry).join('\n')}
<h1 id="warnings">Warnings</h1>
<p>Warnings come in <code>meta.warnings[]</code> as <code>{ code, message, platform? }</code> beside a successful answer: a value that is null, a list left empty or a filter applied loosely, each for the reason named.</p>
${Object.entries(WARNING_DOCS)
  .map(([code, when]) => `<section class="code" id="warning.${esc(code)}"><h2><a href="#warning.${esc(code)}"><code>${esc(code)}</code></a></h2><p>${prose(when)}</p></section>`)
  .join('\n')}
</body>
</html>`;
}
