/** Shared page shell and CSS for the demo sites. No external resources: system fonts, inline CSS. */
import { html, raw, type SafeHtml } from './http.ts';

export interface PageOptions {
  title: string;
  /** Site brand shown in the header. */
  brand: string;
  /** Accent colour (CSS colour). */
  accent: string;
  nav?: SafeHtml;
  /** Extra markup in the header, right side (e.g. a clock). */
  headerExtra?: SafeHtml;
  head?: SafeHtml;
  body: SafeHtml;
  /** Same-origin script URLs, loaded with `defer`. */
  scripts?: string[];
  /** Extra CSS for this site. */
  css?: string;
}

const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{color-scheme:light}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;color:#1d232b;background:#f4f5f7}
a{color:var(--accent)}
header.site{display:flex;align-items:center;gap:24px;padding:12px 24px;background:#fff;border-bottom:3px solid var(--accent)}
header.site .brand{font-weight:700;font-size:18px;color:#1d232b;text-decoration:none}
header.site nav{display:flex;gap:16px}
header.site nav a{text-decoration:none;padding:4px 2px;border-bottom:2px solid transparent}
header.site nav a[aria-current="page"]{border-bottom-color:var(--accent);font-weight:600}
header.site .extra{margin-left:auto;color:#5b6470;font-size:13px;font-variant-numeric:tabular-nums}
main{max-width:920px;margin:24px auto;padding:0 24px}
.card{background:#fff;border:1px solid #dde1e6;border-radius:10px;padding:20px 24px;margin-bottom:20px}
h1{font-size:24px;margin:0 0 12px}
h2{font-size:18px;margin:0 0 12px}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 10px;border-bottom:1px solid #e6e9ed}
th{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:#5b6470}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:13px;font-weight:600;background:#eef0f3;color:#39424e}
.badge.warn{background:#fff3d6;color:#7a5200}
.badge.ok{background:#dcf5e3;color:#17603a}
.badge.info{background:#dde9ff;color:#1c4596}
.badge.muted{background:#eceff2;color:#5b6470}
.badge.bad{background:#fde2e1;color:#8f1d17}
button,.button{font:inherit;padding:8px 16px;border-radius:8px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:#b42318;border-color:#b42318}
button.small{padding:4px 10px;font-size:13px}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #7aa7ff;outline-offset:2px}
input,select,textarea{font:inherit;padding:7px 10px;border:1px solid #c3c9d1;border-radius:8px;background:#fff}
label{display:block;font-weight:600;font-size:14px;margin-bottom:4px}
.field{margin-bottom:14px}
.row{display:flex;gap:12px;align-items:flex-end;flex-wrap:wrap}
.muted{color:#5b6470}
.note{padding:10px 14px;border-radius:8px;background:#eef3ff;border:1px solid #cbd9ff;color:#1c3a7a}
.note.warn{background:#fff6e0;border-color:#f1d48a;color:#6b4a00}
.note.error{background:#fde2e1;border-color:#f3b1ad;color:#8f1d17}
.note.success{background:#dcf5e3;border-color:#a6dfb9;color:#17603a}
.note:empty{display:none}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
footer.site{max-width:920px;margin:0 auto 32px;padding:0 24px;color:#8a929c;font-size:12px}
`;

export function page(options: PageOptions): string {
  const scripts = (options.scripts ?? []).map((src) => html`<script src="${src}" defer></script>\n`);
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="icon" href="data:,">
<style>:root{--accent:${options.accent}}${raw(BASE_CSS)}${raw(options.css ?? '')}</style>
${options.head ?? ''}
${scripts}
</head>
<body>
<header class="site">
  <a class="brand" href="/">${options.brand}</a>
  ${options.nav ?? ''}
  <div class="extra">${options.headerExtra ?? ''}</div>
</header>
<main id="main">
${options.body}
</main>
<footer class="site">Steward demo site · local only · no data leaves this machine</footer>
</body>
</html>`}\n`;
}

/** A plain error page used for browser (non-API) requests. */
export function errorPage(site: { brand: string; accent: string }, status: number, code: string, message: string, back?: { href: string; label: string }): string {
  const title = status === 404 ? 'Not found' : status === 409 ? 'That action is no longer possible' : 'Request failed';
  return page({
    title: `${title} — ${site.brand}`,
    brand: site.brand,
    accent: site.accent,
    body: html`<section class="card" role="alert">
  <h1>${title}</h1>
  <p class="note error" id="error-message">${message}</p>
  <p class="muted">HTTP ${status} · <code id="error-code">${code}</code></p>
  <p>${back ? html`<a id="error-back" href="${back.href}">${back.label}</a> · ` : ''}<a href="/">Home</a></p>
</section>`,
  });
}
