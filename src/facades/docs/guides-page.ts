import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';

/**
 * The guides (docs/guides/*.md) as pages at /docs/guides/<name>, rendered once at start in the
 * offline style of /docs/errors: no script, nothing loaded from elsewhere. Raw HTML in the
 * Markdown is escaped (micromark's default). Links between guides become links between pages; a
 * link to a file of the repository has no page to go to, so it is shown as its text and path.
 */
const GUIDES_DIR = fileURLToPath(new URL('../../../docs/guides/', import.meta.url));

export const GUIDES_PATH = '/docs/guides';

const STYLE = `body{font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:860px;margin:0 auto;padding:1rem 1.25rem 30vh;color:#1d1d1f}
code{font:0.9em ui-monospace,SFMono-Regular,Menlo,monospace;background:#f2f2f5;padding:0 .25em;border-radius:3px;overflow-wrap:anywhere}
pre{background:#f6f6f9;border:1px solid #e3e3ea;border-radius:6px;padding:.75rem;overflow-x:auto}pre code{background:none;padding:0;overflow-wrap:normal}
table{border-collapse:collapse;display:block;overflow-x:auto;font-size:.92rem}th,td{border:1px solid #ddd;padding:.3rem .5rem;vertical-align:top;text-align:left}
h1{font-size:1.7rem}h2{font-size:1.3rem;margin-top:2rem;border-top:1px solid #eee;padding-top:1rem}h3{font-size:1.05rem}
a{color:#0b57d0;text-decoration:none}a:hover{text-decoration:underline}nav{font-size:.9rem;margin-bottom:1rem}.repo{color:#555}
:target{background:#fff7d6;border-radius:4px}`;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens. */
function slug(html: string): string {
  return html
    .replace(/<[^>]+>/g, '')
    .replace(/&#?\w+;/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

function pageHref(target: string): string | null {
  const m = /^([\w-]+)\.md(#.*)?$/.exec(target);
  if (!m) return null;
  return `${GUIDES_PATH}${m[1] === 'README' ? '' : `/${m[1]}`}${m[2] ?? ''}`;
}

function renderGuide(markdown: string): { title: string; body: string } {
  let body = micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  body = body.replace(/<h([1-6])>([\s\S]*?)<\/h\1>/g, (_m, level: string, inner: string) => `<h${level} id="${slug(inner)}">${inner}</h${level}>`);
  body = body.replace(/<a href="([^"]*)">([\s\S]*?)<\/a>/g, (m, href: string, text: string) => {
    if (/^(https?:|mailto:|#|\/)/.test(href)) return m;
    const page = pageHref(href);
    if (page) return `<a href="${page}">${text}</a>`;
    return `<span class="repo" title="${esc(href.replace(/^(\.\.\/)+/, ''))} in the repository">${text}</span>`;
  });
  body = body.replace(/<img src="([^"]*)" alt="([^"]*)"\s*\/?>/g, (_m, _src: string, alt: string) => `<em class="repo">[${alt}]</em>`);
  const title = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(body)?.[1]?.replace(/<[^>]+>/g, '') ?? 'Guide';
  return { title, body };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Accommodation Data Service</title>
<style>${STYLE}</style>
</head>
<body>
<nav><a href="/docs">API reference</a> · <a href="${GUIDES_PATH}">Guides</a> · <a href="/docs/errors">Error catalogue</a></nav>
${body}
</body>
</html>`;
}

/** The guides' Markdown files; none where a deployment left the docs folder out (no guide pages then, not a failed start). */
const guideFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : []);

/** Every guide's page by path (/docs/guides for the index, /docs/guides/<name> for the rest). */
export function renderGuidePages(dir = GUIDES_DIR): Map<string, string> {
  const pages = new Map<string, string>();
  for (const file of guideFiles(dir)) {
    const { title, body } = renderGuide(readFileSync(`${dir}/${file}`, 'utf8'));
    const name = file.slice(0, -3);
    pages.set(name === 'README' ? GUIDES_PATH : `${GUIDES_PATH}/${name}`, page(title, body));
  }
  return pages;
}

/** The guides' titles and paths, for /llms.txt. */
export function guideIndex(dir = GUIDES_DIR): { path: string; title: string }[] {
  return guideFiles(dir)
    .filter((f) => f !== 'README.md')
    .sort()
    .map((f) => ({ path: `${GUIDES_PATH}/${f.slice(0, -3)}`, title: /^# (.+)$/m.exec(readFileSync(`${dir}/${f}`, 'utf8'))?.[1]?.replace(/`/g, '') ?? f }));
}
