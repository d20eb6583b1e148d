/**
 * `/webmcp/listing`: a page whose tools come from two windows. The top frame registers its own
 * tools (one with a description far over Chrome's 500-character budget and a parameter
 * description over 150, one with a name over 30 characters, one marked `debugging`), and a
 * same-origin child frame registers others. Chromium's getTools() lists all of them in both
 * frames; each tool says in its answer, and counts on its own page, which frame ran it.
 */
import { html, sendHtml, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const POLICY_SENTENCE = 'Returns the store’s return policy for one product category, including the exceptions for opened items, final-sale goods and gift receipts. ';
/** Over the 500-character budget; the part past it is what only the person reads. */
export const LONG_DESCRIPTION = `${POLICY_SENTENCE.repeat(5)}THE-END-OF-THE-LONG-DESCRIPTION`;
export const LONG_PARAMETER_DESCRIPTION = `${'The product category, as the store names it on its shelves and in its receipts. '.repeat(3)}THE-END-OF-THE-PARAMETER`;
export const LONG_TOOL_NAME = 'lookup_order_status_with_carrier_details';

const TOP_SCRIPT = `(() => {
  'use strict';
  const mc = document.modelContext;
  if (!mc || typeof mc.registerTool !== 'function') return;
  const ran = (name) => { const out = document.getElementById('top-calls'); out.textContent = String(Number(out.textContent) + 1); return 'ran ' + name + ' in the top frame'; };
  const readOnly = { readOnlyHint: true };
  mc.registerTool({ name: 'check_stock', description: 'Checks whether a product is in stock.', inputSchema: { type: 'object', properties: {} }, annotations: readOnly, execute: async () => ran('check_stock') });
  mc.registerTool({
    name: 'return_policy',
    description: ${JSON.stringify(LONG_DESCRIPTION)},
    inputSchema: { type: 'object', properties: { category: { type: 'string', description: ${JSON.stringify(LONG_PARAMETER_DESCRIPTION)} } } },
    annotations: readOnly,
    execute: async () => ran('return_policy'),
  });
  mc.registerTool({ name: ${JSON.stringify(LONG_TOOL_NAME)}, description: 'Looks up an order and its carrier.', inputSchema: { type: 'object', properties: {} }, annotations: readOnly, execute: async () => ran(${JSON.stringify(LONG_TOOL_NAME)}) });
  mc.registerTool({ name: 'dump_debug_state', description: 'Dumps the page state for the site’s developers.', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true, debugging: true }, execute: async () => ran('dump_debug_state') });
})();
`;

const CHILD_SCRIPT = `(() => {
  'use strict';
  const mc = document.modelContext;
  if (!mc || typeof mc.registerTool !== 'function') return;
  const ran = (name) => { const out = document.getElementById('child-calls'); out.textContent = String(Number(out.textContent) + 1); return 'ran ' + name + ' in the child frame'; };
  mc.registerTool({ name: 'store_hours', description: 'Tells the store’s opening hours (registered by the embedded store widget).', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true }, execute: async () => ran('store_hours') });
})();
`;

function topPage(): string {
  return page({
    title: `Tools from two frames — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: ['/assets/webmcp-listing-top.js'],
    body: html`<section class="card"><h1>Tools from two frames</h1>
<p>This page registers four tools; the store widget below, a same-origin frame, registers one of its own.</p>
<p>Calls run in this frame: <output id="top-calls">0</output></p>
<iframe id="store-widget" title="Store widget" src="/webmcp/listing/widget" style="width:100%;height:140px;border:1px solid #ccc"></iframe></section>`,
  });
}

function widgetPage(): string {
  return page({
    title: `Store widget — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: ['/assets/webmcp-listing-widget.js'],
    body: html`<p>Store widget. Calls run in this frame: <output id="child-calls">0</output></p>`,
  });
}

export function mountWebMcpListing(router: Router): void {
  router.get('/webmcp/listing', (ctx) => sendHtml(ctx.res, 200, topPage()));
  router.get('/webmcp/listing/widget', (ctx) => sendHtml(ctx.res, 200, widgetPage()));
  router.get('/assets/webmcp-listing-top.js', (ctx) => sendScript(ctx.res, TOP_SCRIPT));
  router.get('/assets/webmcp-listing-widget.js', (ctx) => sendScript(ctx.res, CHILD_SCRIPT));
}
