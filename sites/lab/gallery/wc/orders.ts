import { SHOELACE_BASE } from './shoelace-assets.ts';
import { slCrumbs, wcDoc } from './doc.ts';

/** Order pages of a Shoelace storefront: every badge, button and breadcrumb lives in a shadow root. */

export function orderShippedPage(): string {
  return wcDoc({
    title: 'ORD-9001 · Orders · Lumen Store',
    brand: 'Lumen Store',
    body: `${slCrumbs('Account', 'Orders', 'ORD-9001')}
<div class="heading"><h1>Order ORD-9001</h1><sl-badge variant="primary" pill>Shipped</sl-badge></div>
<sl-card><div class="kv"><span class="k">Placed</span><span><sl-relative-time date="${new Date(Date.now() - 3 * 86400_000).toISOString()}" sync></sl-relative-time></span>
<span class="k">Total</span><span><sl-format-number type="currency" currency="USD" value="249.5" lang="en-US"></sl-format-number></span>
<span class="k">Carrier</span><span>DHL Express · 4 parcels</span></div>
<div class="actions"><sl-button variant="primary">Track shipment</sl-button><sl-button>Download invoice</sl-button></div></sl-card>`,
  });
}

/** "Checkout · ORD-9102": quantity steppers are icon buttons whose names are only aria labels inside shadow roots. */
export function checkoutQuantityPage(): string {
  return wcDoc({
    title: 'Checkout · ORD-9102',
    brand: 'Lumen Store',
    css: '.qty{display:flex;align-items:center;gap:4px}.qty output{min-width:28px;text-align:center;font-weight:600}',
    body: `${slCrumbs('Cart', 'Checkout', 'ORD-9102')}
<div class="heading"><h1>Review and pay</h1><sl-badge variant="warning" pill>Awaiting payment</sl-badge></div>
<sl-alert variant="neutral" open>Your items are held for <strong class="js-hold">10:00</strong></sl-alert>
<sl-card style="margin-top:12px"><div class="kv"><span class="k">Noise-cancelling headphones</span><span class="qty"><sl-icon-button name="dash-lg" label="Decrease quantity" class="js-dec"></sl-icon-button><output class="js-qty" aria-label="Quantity">1</output><sl-icon-button name="plus-lg" label="Increase quantity" class="js-inc"></sl-icon-button></span>
<span class="k">Total</span><span><sl-format-number class="js-total" type="currency" currency="USD" value="179" lang="en-US"></sl-format-number></span></div>
<div class="actions"><sl-button variant="primary">Place order</sl-button></div></sl-card>`,
    module: `let q=1,left=600;const unit=179;
const draw=()=>{document.querySelector('.js-qty').textContent=String(q);document.querySelector('.js-total').value=unit*q};
document.querySelector('.js-inc').addEventListener('click',()=>{q=Math.min(9,q+1);draw()});
document.querySelector('.js-dec').addEventListener('click',()=>{q=Math.max(1,q-1);draw()});
setInterval(()=>{left=left>0?left-1:600;document.querySelector('.js-hold').textContent=String(Math.floor(left/60)).padStart(2,'0')+':'+String(left%60).padStart(2,'0')},1000);`,
  });
}

/** The whole order view is one custom element with a closed shadow root: no page script (or extension) can query into it. */
export function closedShadowOrderPage(): string {
  return wcDoc({
    title: 'Order status — Quill Paper Co.',
    brand: 'Quill Paper Co.',
    autoload: false,
    body: '<order-view></order-view>',
    module: `import '${SHOELACE_BASE}/components/badge/badge.js';
import '${SHOELACE_BASE}/components/button/button.js';
import '${SHOELACE_BASE}/components/card/card.js';
class OrderView extends HTMLElement {
  constructor(){super();const root=this.attachShadow({mode:'closed'});
    root.innerHTML='<style>.h{display:flex;gap:12px;align-items:center}h1{font-size:24px;margin:10px 0}.k{color:#666;width:140px;display:inline-block}</style>'+
    '<div class="h"><h1>Order ORD-9555</h1><sl-badge variant="neutral" pill>Processing</sl-badge></div>'+
    '<sl-card><p><span class="k">Items</span>Letterpress notebook ×3</p><p><span class="k">Total</span>$54.00</p>'+
    '<sl-button variant="default">Contact support</sl-button></sl-card>';}
}
customElements.define('order-view', OrderView);`,
  });
}
