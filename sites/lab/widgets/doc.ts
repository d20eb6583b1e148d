/**
 * The shell of a widget page: small (one task's worth of page, MiniWoB-sized), its own CSS, and
 * `sendAnswer(value)`, which posts what the person did to `/widgets/<slug>/answer` under the
 * episode id in the page's URL. jQuery UI pages load the library and its default theme from
 * the lab itself (assets.ts).
 */
import { escapeHtml } from '../../http.ts';
import { LIB_BASE } from './assets.ts';

export interface WidgetDoc {
  slug: string;
  title: string;
  body: string;
  css?: string;
  /** Runs at the end of the body (after the libraries). */
  script?: string;
  /** Load jQuery 3 and jQuery UI 1.14 with the base theme. */
  jqueryUi?: boolean;
}

const BASE_CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.45 -apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;background:#fff}
.top{display:flex;align-items:center;gap:16px;padding:8px 16px;background:#24292f;color:#fff;font-weight:600}
.page{max-width:560px;padding:16px}h1{font-size:20px;margin:0 0 12px}
.btn{display:inline-block;padding:6px 14px;border-radius:6px;border:1px solid #1a7f37;background:#1f883d;color:#fff;font:inherit;cursor:pointer}
.btn.plain{background:#f6f8fa;color:#24292f;border-color:#d0d7de}.field{margin:10px 0}.field label{display:block;font-size:13px;color:#57606a;margin-bottom:3px}
input,select{font:inherit;padding:5px 8px;border:1px solid #d0d7de;border-radius:6px}.sent{color:#116329;font-size:13px;min-height:1.4em}`;

/** Posts `{episode, answer}` as JSON; shows "Sent." once the server has it. */
function answerScript(slug: string): string {
  return `window.sendAnswer=function(answer){var episode=new URLSearchParams(location.search).get('episode')||'none';
return fetch('/widgets/'+${JSON.stringify(slug)}+'/answer',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({episode:episode,answer:answer})})
.then(function(r){var s=document.getElementById('sent');if(s)s.textContent=r.ok?'Sent.':'Not sent ('+r.status+').'})};`;
}

export function widgetDoc(doc: WidgetDoc): string {
  const libs = doc.jqueryUi ? `<link rel="stylesheet" href="${LIB_BASE}/jquery-ui.css">\n<script src="${LIB_BASE}/jquery.js"></script>\n<script src="${LIB_BASE}/jquery-ui.js"></script>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.title)}</title>
<link rel="icon" href="data:,">
<style>${BASE_CSS}${doc.css ?? ''}</style>
</head>
<body>
<div class="top">Widget lab</div>
<div class="page">
${doc.body}
<p class="sent" id="sent"></p>
</div>
${libs}<script>${answerScript(doc.slug)}</script>
${doc.script ? `<script>${doc.script}</script>` : ''}
</body>
</html>
`;
}

/** A value for a page's script: JSON that cannot close the script element. */
export function js(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
