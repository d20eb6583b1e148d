/**
 * `/webmcp/continue`: a checkout spread over three documents with WebMCP tool continuations (the
 * WebMCP continuations explainer's own example). The `checkout` tool on the billing page asks for a
 * continuation token (`options.invocation.requestToken()`), saves the billing step and navigates
 * to `/webmcp/continue/shipping?token=…`; that page redeems the token
 * (`document.modelContext.resumeTool`), saves the shipping step, asks for a further token and
 * navigates to `/webmcp/continue/confirm?token=…`, whose callback places the order. The server's
 * records (`/webmcp/continue/__state`) are the ground truth of what was done.
 *
 * For hostile tests: `?hand_off=<origin>` sends the token to that origin's shipping page instead;
 * `?hold=1` makes the shipping page redeem only when `#resume-now` is pressed; `slow_checkout`
 * never answers by itself and shows what the page hears when the call is cancelled (its signal,
 * `toolcancel`). Every page says whether the browser's WebMCP has continuations at all
 * (`#continuations`), and what its `resumeTool` call got (`#resume`).
 */
import { z } from 'zod';
import { html, parseBody, sendHtml, sendJson, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const Step = z.object({ step: z.enum(['billing', 'shipping', 'place']), item: z.string().max(200), address: z.string().max(400).optional() });
type Step = z.infer<typeof Step>;

/** What every page of the checkout does first: says whether continuations exist here, and shows what the page hears of cancellation. */
const COMMON = `
  const mc = document.modelContext;
  const show = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = text; };
  show('continuations', mc && typeof mc.resumeTool === 'function' ? 'supported' : 'not supported');
  const heard = [];
  window.addEventListener('toolcancel', (e) => { heard.push('toolcancel ' + e.toolName); show('cancel-heard', heard.join('; ')); });
  const save = (body) => fetch('/webmcp/continue/api/step', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const params = new URLSearchParams(location.search);
`;

const BILLING_SCRIPT = `(() => {
  'use strict';
  ${COMMON}
  if (!mc || typeof mc.registerTool !== 'function') return;
  mc.registerTool({
    name: 'checkout',
    description: 'Places the order for an item, shipped to an address: billing, shipping and confirmation, over three pages.',
    inputSchema: { type: 'object', properties: { item: { type: 'string', description: 'The item to order.' }, address: { type: 'string', description: 'Where to ship it.' } }, required: ['item', 'address'] },
    annotations: { consequentialHint: true },
    execute: async (input, options) => {
      const invocation = options && options.invocation;
      if (!invocation || typeof invocation.requestToken !== 'function') {
        show('billing-note', 'no continuation here');
        return 'This browser cannot continue the checkout on the next page.';
      }
      const token = await invocation.requestToken();
      await save({ step: 'billing', item: input.item });
      const site = params.get('hand_off') || '';
      const extra = params.get('hold') ? '&hold=1' : '';
      location.href = site + '/webmcp/continue/shipping?token=' + encodeURIComponent(token) + extra;
      return 'Billing saved for ' + input.item + '.';
    },
  });
  mc.registerTool({
    name: 'slow_checkout',
    description: 'Starts a checkout that waits for the warehouse; it answers once the warehouse does.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { consequentialHint: true },
    execute: (_input, options) => new Promise((_resolve, reject) => {
      show('slow-state', 'waiting for the warehouse');
      options.signal.addEventListener('abort', () => {
        show('slow-state', 'signal aborted: ' + (options.signal.reason && options.signal.reason.name));
        reject(options.signal.reason);
      });
    }),
  });
})();
`;

/** The shipping and confirmation pages: redeem the token in the address, then do their step when Steward runs them. */
const RESUME_SCRIPT = `(() => {
  'use strict';
  ${COMMON}
  const token = params.get('token') || '';
  const last = document.getElementById('checkout').dataset.step === 'confirm';
  const callback = async (input, options) => {
    if (last) {
      await save({ step: 'place', item: input.item, address: input.address });
      const placed = await (await fetch('/webmcp/continue/__state')).json();
      const order = placed.orders[placed.orders.length - 1];
      show('placed', 'Order placed: ' + order.id);
      return 'Order placed: ' + order.id + ' (' + input.item + ' to ' + input.address + ').';
    }
    const next = await options.invocation.requestToken();
    await save({ step: 'shipping', item: input.item, address: input.address });
    location.href = '/webmcp/continue/confirm?token=' + encodeURIComponent(next);
    return 'Shipping to ' + input.address + ' saved.';
  };
  const resume = () => {
    if (!mc || typeof mc.resumeTool !== 'function') return show('resume', 'no resumeTool');
    mc.resumeTool(token, callback).then(
      () => show('resume', 'accepted'),
      (e) => show('resume', 'refused: ' + e.name + ': ' + e.message),
    );
  };
  if (params.get('hold')) document.getElementById('resume-now').addEventListener('click', resume);
  else resume();
})();
`;

function checkoutPage(step: 'billing' | 'shipping' | 'confirm', hold: boolean): string {
  const title = { billing: 'Checkout — billing', shipping: 'Checkout — shipping', confirm: 'Checkout — confirmation' }[step];
  return page({
    title: `${title} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: [step === 'billing' ? '/assets/webmcp-continue-billing.js' : '/assets/webmcp-continue-resume.js'],
    body: html`<section class="card" id="checkout" data-step="${step}"><h1>${title}</h1>
<p>Continuations: <output id="continuations">?</output></p>
<p>Resumed: <output id="resume">not yet</output></p>
<p>Cancellation heard: <output id="cancel-heard">none</output></p>
<p>Slow checkout: <output id="slow-state">idle</output></p>
<p><output id="billing-note"></output><output id="placed"></output></p>
${hold ? html`<button type="button" id="resume-now">Resume the checkout</button>` : ''}
</section>`,
  });
}

/** Mounts the checkout; returns what the lab's reset calls. */
export function mountWebMcpContinue(router: Router): () => void {
  let steps: Step[] = [];
  let orders: Array<{ id: string; item: string; address: string }> = [];
  router.get('/webmcp/continue', (ctx) => sendHtml(ctx.res, 200, checkoutPage('billing', false)));
  router.get('/webmcp/continue/shipping', (ctx) => sendHtml(ctx.res, 200, checkoutPage('shipping', ctx.url.searchParams.has('hold'))));
  router.get('/webmcp/continue/confirm', (ctx) => sendHtml(ctx.res, 200, checkoutPage('confirm', false)));
  router.get('/assets/webmcp-continue-billing.js', (ctx) => sendScript(ctx.res, BILLING_SCRIPT));
  router.get('/assets/webmcp-continue-resume.js', (ctx) => sendScript(ctx.res, RESUME_SCRIPT));
  router.post('/webmcp/continue/api/step', async (ctx) => {
    const step = await parseBody(ctx, Step);
    steps.push(step);
    if (step.step === 'place') orders.push({ id: `ORD-${7000 + orders.length + 1}`, item: step.item, address: step.address ?? '' });
    sendJson(ctx.res, 200, { ok: true });
  });
  router.get('/webmcp/continue/__state', (ctx) => sendJson(ctx.res, 200, { steps, orders }));
  return () => {
    steps = [];
    orders = [];
  };
}
