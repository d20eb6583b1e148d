import { escapeHtml } from '../../../http.ts';

/**
 * A server-rendered page the way storefronts and back offices write them: their own CSS, class
 * soup, a sticky header, no lab chrome. Pages inline their scripts as such sites do.
 */
export interface HtmlDoc {
  title: string;
  /** The site's name in the sticky header. */
  brand: string;
  body: string;
  head?: string;
  css?: string;
  script?: string;
}

const BASE_CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f7f9}
a{color:#0b5cad}.hdr{position:sticky;top:0;z-index:20;display:flex;align-items:center;gap:24px;padding:10px 24px;background:#111827;color:#fff}
.hdr .logo{font-weight:700;font-size:18px;color:#fff;text-decoration:none}.hdr nav a{color:#cbd5e1;margin-right:14px;text-decoration:none;font-size:14px}
.hdr .acct{margin-left:auto;font-size:13px;color:#cbd5e1}.wrap{max-width:1040px;margin:0 auto;padding:20px 24px 80px}
.crumbs{font-size:13px;color:#57606a;margin:6px 0 14px}.crumbs a{color:#57606a}.crumbs span.sep{margin:0 6px}
.row{display:flex;gap:20px;flex-wrap:wrap}.col{flex:1 1 300px}.panel{background:#fff;border:1px solid #d8dee4;border-radius:8px;padding:16px 18px;margin-bottom:16px}
.ttl{display:flex;align-items:center;gap:12px}.ttl h1,.ttl .h1{font-size:24px;margin:0;font-weight:600}
.pill{display:inline-block;padding:2px 10px;border-radius:999px;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.pill--green{background:#dafbe1;color:#116329}.pill--amber{background:#fff8c5;color:#7d4e00}.pill--red{background:#ffebe9;color:#a40e26}.pill--blue{background:#ddf4ff;color:#0550ae}.pill--grey{background:#eaeef2;color:#424a53}
.btn{display:inline-block;padding:7px 14px;border-radius:6px;border:1px solid #d0d7de;background:#f6f8fa;color:#24292f;font:inherit;font-size:14px;cursor:pointer;text-decoration:none}
.btn--primary{background:#1f883d;border-color:#1a7f37;color:#fff}.btn--danger{color:#cf222e}.muted{color:#57606a;font-size:13px}
dl.kv{display:grid;grid-template-columns:160px 1fr;gap:6px 12px;margin:0}dl.kv dt{color:#57606a}dl.kv dd{margin:0;font-weight:500}
table.tbl{width:100%;border-collapse:collapse;font-size:14px}table.tbl th{text-align:left;color:#57606a;font-weight:600;border-bottom:1px solid #d8dee4;padding:6px 8px}
table.tbl td{border-bottom:1px solid #eaeef2;padding:6px 8px}table.tbl td.num,table.tbl th.num{text-align:right;font-variant-numeric:tabular-nums}
.ftr{font-size:12px;color:#8c959f;text-align:center;padding:24px}`;

export function htmlDoc(doc: HtmlDoc): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<link rel="icon" href="data:,">
<style>${BASE_CSS}${doc.css ?? ''}</style>
${doc.head ?? ''}
</head>
<body>
<div class="hdr"><a class="logo" href="#">${escapeHtml(doc.brand)}</a><nav><a href="#">Shop</a><a href="#">Orders</a><a href="#">Help</a></nav><div class="acct">Signed in as j.doe@example.com</div></div>
<div class="wrap">
${doc.body}
</div>
<div class="ftr">© 2024 ${escapeHtml(doc.brand)} · Privacy · Terms</div>
${doc.script ? `<script>${doc.script}</script>` : ''}
</body>
</html>
`;
}

/** `Orders › ORD-1 › Tracking`: a breadcrumb trail as most shops mark it up. */
export function crumbs(...parts: string[]): string {
  const items = parts.map((p, i) => (i < parts.length - 1 ? `<a href="#">${escapeHtml(p)}</a><span class="sep">›</span>` : `<span>${escapeHtml(p)}</span>`));
  return `<nav class="crumbs" aria-label="Breadcrumb">${items.join('')}</nav>`;
}
