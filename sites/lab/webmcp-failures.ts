/**
 * The lab's failing WebMCP tools (`/webmcp/failures`): each one throws something else — an Error,
 * a `{code, message}` object, a bare string, a megabyte of text — and one changes the page before
 * it throws. Registered imperatively on document.modelContext, so Chrome's native API and the
 * polyfill both serve them. Calls are counted on `window.labToolCalls`, never shown on the page,
 * so a call that changes nothing leaves the page's state untouched.
 */
import { html, sendHtml, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

export const HUGE_MESSAGE_PREFIX = 'HUGE-FAILURE-START ';

const FAILURES_SCRIPT = `(() => {
  'use strict';
  const mc = document.modelContext;
  const status = document.getElementById('webmcp-status');
  if (!mc || typeof mc.registerTool !== 'function') { status.textContent = 'WebMCP not available.'; return; }
  window.labToolCalls = {};
  const count = (name) => { window.labToolCalls[name] = (window.labToolCalls[name] || 0) + 1; };
  const tool = (name, description, execute) => ({
    name,
    description: description + ' (Demo: it always fails.)',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true },
    execute: (input) => { count(name); return execute(input); },
  });
  const tools = [
    tool('fail_with_error', 'Checks stock for the order.', () => { throw new RangeError('The warehouse refused: SKU-7 is out of stock.'); }),
    tool('fail_with_code', 'Reserves a delivery slot.', async () => { throw { code: 'slot-unavailable', message: 'No delivery slot is free before Friday.' }; }),
    tool('fail_with_string', 'Applies a coupon.', () => { throw 'Coupon SPRING is expired'; }),
    tool('fail_huge', 'Validates the basket.', () => { throw new Error(${JSON.stringify(HUGE_MESSAGE_PREFIX)} + 'x'.repeat(1000000)); }),
    tool('fail_after_change', 'Starts an export.', () => {
      document.getElementById('export-status').textContent = 'Exporting';
      const cancel = document.createElement('button');
      cancel.type = 'button';
      cancel.id = 'cancel-export';
      cancel.textContent = 'Cancel export';
      document.getElementById('export-actions').append(cancel);
      throw new Error('The export crashed halfway.');
    }),
  ];
  Promise.all(tools.map((t) => Promise.resolve().then(() => mc.registerTool(t))))
    .then(() => { status.textContent = 'Registered ' + tools.length + ' failing tools.'; })
    .catch((e) => { status.textContent = 'registerTool failed: ' + e; });
})();
`;

function failuresPage(): string {
  return page({
    title: `Failing tools — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: ['/assets/webmcp-failures.js'],
    body: html`<section class="card"><h1>Tools that fail</h1>
<p id="webmcp-status">Registering tools…</p>
<p>Export status: <span id="export-status">Idle</span></p>
<div id="export-actions"></div></section>`,
  });
}

export function mountWebMcpFailures(router: Router): void {
  router.get('/webmcp/failures', (ctx) => sendHtml(ctx.res, 200, failuresPage()));
  router.get('/assets/webmcp-failures.js', (ctx) => sendScript(ctx.res, FAILURES_SCRIPT));
}
