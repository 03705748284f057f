/**
 * The service's icon: a house with a price tag, as a small SVG we serve ourselves at /icon.svg
 * (the MCP server and tool icons point here; no CDN, nothing fetched from elsewhere).
 */
export const ICON_PATH = '/icon.svg';

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64" role="img" aria-label="Accommodation Data Service">
<rect width="64" height="64" rx="14" fill="#0f5f8c"/>
<path d="M14 32 32 16l18 16v18a2 2 0 0 1-2 2H16a2 2 0 0 1-2-2z" fill="#fff"/>
<rect x="27" y="36" width="10" height="16" rx="1" fill="#0f5f8c"/>
<circle cx="47" cy="19" r="7" fill="#f2a93b"/>
<path d="M44.5 19h5M47 16.5v5" stroke="#fff" stroke-width="1.8" stroke-linecap="round"/>
</svg>
`;
