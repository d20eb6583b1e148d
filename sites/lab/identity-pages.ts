/**
 * Pages that name their resource the way real shops do (issue 14): a checkout that names its
 * order only in the title, the breadcrumb and a heading "Checkout for ORD-2003"; an order page
 * whose only id is its breadcrumb; a product whose name carries a model number ("Trail Runner 3")
 * and names no resource. Each has a consequential button, one control far off-canvas, one
 * clipped away by its container's overflow, and one below the fold.
 */
import { html, sendHtml, type Router, type SafeHtml } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const CSS = `.far{position:absolute;left:-10000px;top:0}.fold{margin-top:2400px}.clip{width:200px;height:30px;overflow:hidden;position:relative}.clipped{position:absolute;left:400px;top:0}nav.crumbs ol{display:flex;gap:.5rem;list-style:none;padding:0}nav.crumbs li+li::before{content:"›";margin-right:.5rem}`;

function crumbs(trail: string[]): SafeHtml {
  const items = trail.map((c, i) => (i === trail.length - 1 ? html`<li aria-current="page">${c}</li>` : html`<li><a href="/identity/checkout">${c}</a></li>`));
  return html`<nav class="crumbs" aria-label="Breadcrumb"><ol>${items}</ol></nav>`;
}

function shopPage(title: string, trail: string[], body: SafeHtml): string {
  return page({
    title,
    brand: LAB.brand,
    accent: LAB.accent,
    css: CSS,
    body: html`${crumbs(trail)}<section class="card">${body}</section>
<button type="button" class="far">Legacy export</button>
<div class="clip"><span>More actions</span><div class="clipped"><button type="button">Bulk relabel</button></div></div>
<p class="fold"><button type="button">Load more</button></p>`,
  });
}

export function mountIdentityPages(router: Router): void {
  router.get('/identity/checkout', (ctx) =>
    sendHtml(ctx.res, 200, shopPage('Checkout · ORD-2003', ['Home', 'Orders', 'ORD-2003'], html`<h1>Checkout for ORD-2003</h1><p>2 items · $84.00</p><button type="button">Place order</button>`)),
  );
  router.get('/identity/order-detail', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shopPage(`Order details — ${LAB.brand}`, ['Home', 'Orders', 'ORD-2003'], html`<h1>Order details</h1><p>Thanks for shopping with us.</p><button type="button">Cancel order</button>`),
    ),
  );
  router.get('/identity/trail-runner-3', (ctx) =>
    sendHtml(
      ctx.res,
      200,
      shopPage(
        `Trail Runner 3 — ${LAB.brand}`,
        ['Home', 'Shoes', 'Trail Runner 3'],
        html`<h1>Trail Runner 3</h1><p>Sale: $129.99 · Spring 2026 collection · Call 555-0123</p><button type="button">Remove from wishlist</button>`,
      ),
    ),
  );
}
