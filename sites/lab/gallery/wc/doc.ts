import { escapeHtml } from '../../../http.ts';
import { SHOELACE_BASE } from './shoelace-assets.ts';

/** A page of a web-components app: Shoelace's theme and autoloader, the app's own layout, an inline module. */
export interface WcDoc {
  title: string;
  brand: string;
  body: string;
  css?: string;
  /** An inline ES module run after the body. */
  module?: string;
  /** False when the page registers its components itself (the autoloader cannot see into closed roots). */
  autoload?: boolean;
}

const APP_CSS = `
body{margin:0;font-family:var(--sl-font-sans);color:var(--sl-color-neutral-900);background:var(--sl-color-neutral-50)}
.app-bar{position:sticky;top:0;z-index:10;display:flex;align-items:center;gap:16px;padding:10px 24px;background:var(--sl-color-primary-700);color:#fff}
.app-bar b{font-size:18px}.app-bar span{margin-left:auto;font-size:13px;opacity:.85}
.content{max-width:980px;margin:0 auto;padding:18px 24px 60px}.heading{display:flex;align-items:center;gap:12px;margin:14px 0}.heading h1{margin:0;font-size:24px;font-weight:600}
sl-card{width:100%;margin-bottom:16px}.kv{display:grid;grid-template-columns:150px 1fr;gap:6px 12px}.kv .k{color:var(--sl-color-neutral-600)}
.actions{display:flex;gap:8px;margin-top:14px;flex-wrap:wrap}`;

export function wcDoc(doc: WcDoc): string {
  const loader = doc.autoload === false ? '' : `<script type="module" src="${SHOELACE_BASE}/shoelace-autoloader.js" data-shoelace="${SHOELACE_BASE}"></script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${SHOELACE_BASE}/themes/light.css">
${loader}
<style>${APP_CSS}${doc.css ?? ''}</style>
</head>
<body class="sl-theme-light">
<div class="app-bar"><b>${escapeHtml(doc.brand)}</b><span>j.doe@example.com</span></div>
<div class="content">
${doc.body}
</div>
${doc.module ? `<script type="module">${doc.module}</script>` : ''}
</body>
</html>
`;
}

/** Shoelace's breadcrumb: each item a link in its own shadow root. */
export function slCrumbs(...parts: string[]): string {
  return `<sl-breadcrumb>${parts.map((p, i) => (i < parts.length - 1 ? `<sl-breadcrumb-item href="#">${escapeHtml(p)}</sl-breadcrumb-item>` : `<sl-breadcrumb-item>${escapeHtml(p)}</sl-breadcrumb-item>`)).join('')}</sl-breadcrumb>`;
}
