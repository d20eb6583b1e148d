/**
 * `/new-tabs?to=<url>`: controls that open a NEW tab or window, as real pages do ("open in a new
 * window" links, share buttons, a form that posts to a payment or partner window). Each sends the
 * new tab to `to`, which hostile tests point at another local server with a page fact in its URL:
 * a link with target="_blank", a button whose click handler calls `window.open`, and a form with
 * target="_blank" that posts an order number. A same-tab link to `/new-tabs/slow` answers only
 * once the test releases it (`POST /new-tabs/__release`), so a test can act while an agent's step
 * is still running, without a timed wait.
 */
import { html, sendHtml, sendJson, type Router } from '../http.ts';
import { cardPage } from './card-page.ts';

const OPEN_WINDOW = `document.getElementById('open-window').addEventListener('click', (e) => { window.open(e.currentTarget.dataset.to, '_blank'); });`;

/** The longest a slow page waits for its release: a test that never releases it must not hang the server. */
const SLOW_CAP_MS = 30_000;
let waiting: Array<() => void> = [];

function newTabsPage(to: string): string {
  return cardPage(
    'Partner offers',
    html`<p><a id="offer-link" href="${to}" target="_blank">Open the partner offer</a></p>
<p><button type="button" id="open-window" data-to="${to}">Open the partner window</button></p>
<form method="post" action="${to}" target="_blank">
  <input type="hidden" name="order" value="ORD-1024">
  <button type="submit">Send the order to the partner</button>
</form>
<p><a href="/new-tabs/slow">Load the yearly report</a></p>`,
    OPEN_WINDOW,
  );
}

export function mountNewTabs(router: Router): void {
  router.get('/new-tabs', (ctx) => sendHtml(ctx.res, 200, newTabsPage(ctx.url.searchParams.get('to') ?? 'https://example.com/')));
  router.get('/new-tabs/slow', async (ctx) => {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SLOW_CAP_MS);
      waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    sendHtml(ctx.res, 200, cardPage('Yearly report', html`<p>All orders were delivered.</p>`));
  });
  router.post('/new-tabs/__release', (ctx) => {
    const released = waiting.length;
    waiting.forEach((go) => go());
    waiting = [];
    sendJson(ctx.res, 200, { released });
  });
  router.get('/new-tabs/__waiting', (ctx) => sendJson(ctx.res, 200, { waiting: waiting.length }));
}
