/**
 * `/webmcp/continue`: a parcel booking spread over three documents with WebMCP tool continuations (the
 * WebMCP continuations explainer's checkout, as a parcel: Steward reads a checkout as payment). The `ship_parcel` tool on the sender page asks for a
 * continuation token (`options.invocation.requestToken()`), saves the sender step and navigates
 * to `/webmcp/continue/delivery?token=…`; that page redeems the token
 * (`document.modelContext.resumeTool`), saves the delivery step, asks for a further token and
 * navigates to `/webmcp/continue/confirm?token=…`, whose callback books the parcel. The server's
 * records (`/webmcp/continue/__state`) are the ground truth of what was done.
 *
 * For hostile tests: `?hand_off=<origin>` sends the token to that origin's delivery page instead;
 * `?hold=1` makes the delivery page redeem only when `#resume-now` is pressed; `slow_parcel`
 * never answers by itself and shows what the page hears when the call is cancelled (its signal,
 * `toolcancel`). Every page says whether the browser's WebMCP has continuations at all
 * (`#continuations`), and what its `resumeTool` call got (`#resume`).
 */
import { z } from 'zod';
import { html, parseBody, sendHtml, sendJson, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const Step = z.object({ step: z.enum(['sender', 'delivery', 'book']), item: z.string().max(200), address: z.string().max(400).optional() });
type Step = z.infer<typeof Step>;

/** What every page of the booking does first: says whether continuations exist here, and shows what the page hears of cancellation. */
const COMMON = `
  const mc = document.modelContext;
  const show = (id, text) => { const el = document.getElementById(id); if (el) el.textContent = text; };
  show('continuations', mc && typeof mc.resumeTool === 'function' ? 'supported' : 'not supported');
  const heard = [];
  // Chromium fires an imperative tool's toolcancel at document.modelContext (not at the window).
  if (mc) mc.addEventListener('toolcancel', (e) => { heard.push('toolcancel ' + e.toolName); show('cancel-heard', heard.join('; ')); });
  const save = (body) => fetch('/webmcp/continue/api/step', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const params = new URLSearchParams(location.search);
`;

const SENDER_SCRIPT = `(() => {
  'use strict';
  ${COMMON}
  if (!mc || typeof mc.registerTool !== 'function') return;
  mc.registerTool({
    name: 'ship_parcel',
    description: 'Books a parcel to an address: sender, delivery and confirmation, over three pages.',
    inputSchema: { type: 'object', properties: { item: { type: 'string', description: 'What the parcel holds.' }, address: { type: 'string', description: 'Where it goes.' } }, required: ['item', 'address'] },
    annotations: { consequentialHint: true },
    execute: async (input, options) => {
      const invocation = options && options.invocation;
      if (!invocation || typeof invocation.requestToken !== 'function') {
        show('sender-note', 'no continuation here');
        return 'This browser cannot continue the booking on the next page.';
      }
      const token = await invocation.requestToken();
      await save({ step: 'sender', item: input.item });
      const site = params.get('hand_off') || '';
      const extra = params.get('hold') ? '&hold=1' : '';
      location.href = site + '/webmcp/continue/delivery?token=' + encodeURIComponent(token) + extra;
      return 'Sender saved for ' + input.item + '.';
    },
  });
  mc.registerTool({
    name: 'slow_parcel',
    description: 'Books a parcel that waits for the depot; it answers once the depot does.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { consequentialHint: true },
    execute: (_input, options) => new Promise((_resolve, reject) => {
      show('slow-state', 'waiting for the depot');
      options.signal.addEventListener('abort', () => {
        show('slow-state', 'signal aborted: ' + (options.signal.reason && options.signal.reason.name));
        reject(options.signal.reason);
      });
    }),
  });
})();
`;

/** The delivery and confirmation pages: redeem the token in the address, then do their step when Steward runs them. */
const RESUME_SCRIPT = `(() => {
  'use strict';
  ${COMMON}
  const token = params.get('token') || '';
  const last = document.getElementById('booking').dataset.step === 'confirm';
  const callback = async (input, options) => {
    if (last) {
      await save({ step: 'book', item: input.item, address: input.address });
      const booked = await (await fetch('/webmcp/continue/__state')).json();
      const parcel = booked.parcels[booked.parcels.length - 1];
      show('booked', 'Parcel booked: ' + parcel.id);
      return 'Parcel booked: ' + parcel.id + ' (' + input.item + ' to ' + input.address + ').';
    }
    const next = await options.invocation.requestToken();
    await save({ step: 'delivery', item: input.item, address: input.address });
    location.href = '/webmcp/continue/confirm?token=' + encodeURIComponent(next);
    return 'Delivery to ' + input.address + ' saved.';
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

function bookingPage(step: 'sender' | 'delivery' | 'confirm', hold: boolean): string {
  const title = { sender: 'Parcel — sender', delivery: 'Parcel — delivery', confirm: 'Parcel — confirmation' }[step];
  return page({
    title: `${title} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    scripts: [step === 'sender' ? '/assets/webmcp-continue-sender.js' : '/assets/webmcp-continue-resume.js'],
    body: html`<section class="card" id="booking" data-step="${step}"><h1>${title}</h1>
<p>Continuations: <output id="continuations">?</output></p>
<p>Resumed: <output id="resume">not yet</output></p>
<p>Cancellation heard: <output id="cancel-heard">none</output></p>
<p>Slow parcel: <output id="slow-state">idle</output></p>
<p><output id="sender-note"></output><output id="booked"></output></p>
${hold ? html`<button type="button" id="resume-now">Resume the booking</button>` : ''}
</section>`,
  });
}

/** Mounts the booking; returns what the lab's reset calls. */
export function mountWebMcpContinue(router: Router): () => void {
  let steps: Step[] = [];
  let parcels: Array<{ id: string; item: string; address: string }> = [];
  router.get('/webmcp/continue', (ctx) => sendHtml(ctx.res, 200, bookingPage('sender', false)));
  router.get('/webmcp/continue/delivery', (ctx) => sendHtml(ctx.res, 200, bookingPage('delivery', ctx.url.searchParams.has('hold'))));
  router.get('/webmcp/continue/confirm', (ctx) => sendHtml(ctx.res, 200, bookingPage('confirm', false)));
  router.get('/assets/webmcp-continue-sender.js', (ctx) => sendScript(ctx.res, SENDER_SCRIPT));
  router.get('/assets/webmcp-continue-resume.js', (ctx) => sendScript(ctx.res, RESUME_SCRIPT));
  router.post('/webmcp/continue/api/step', async (ctx) => {
    const step = await parseBody(ctx, Step);
    steps.push(step);
    if (step.step === 'book') parcels.push({ id: `PCL-${7000 + parcels.length + 1}`, item: step.item, address: step.address ?? '' });
    sendJson(ctx.res, 200, { ok: true });
  });
  router.get('/webmcp/continue/__state', (ctx) => sendJson(ctx.res, 200, { steps, parcels }));
  return () => {
    steps = [];
    parcels = [];
  };
}
