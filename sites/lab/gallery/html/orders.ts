import { crumbs, htmlDoc } from './doc.ts';

/** Order pages of a storefront: structured data on one, prose on another, a badge that lies on a third. */

/** JSON-LD Order with orderStatus; the badge says the same in the shop's own words. */
export function orderJsonLdPage(): string {
  const ld = {
    '@context': 'https://schema.org',
    '@type': 'Order',
    orderNumber: 'ORD-3107',
    orderStatus: 'https://schema.org/OrderInTransit',
    orderDate: '2024-03-02',
    merchant: { '@type': 'Organization', name: 'Northwind Outfitters' },
    acceptedOffer: [{ '@type': 'Offer', itemOffered: { '@type': 'Product', name: 'Merino hoodie' }, price: '89.00', priceCurrency: 'USD' }],
  };
  return htmlDoc({
    title: 'Order ORD-3107 | Northwind Outfitters',
    brand: 'Northwind Outfitters',
    head: `<script type="application/ld+json">${JSON.stringify(ld)}</script>`,
    body: `${crumbs('Your account', 'Orders', 'ORD-3107')}
<div class="panel"><div class="ttl"><h1>Order ORD-3107</h1><span class="pill pill--blue">In transit</span></div>
<p class="muted">Placed on 2 March 2024 · Estimated delivery 8 March</p>
<div class="row"><div class="col"><dl class="kv"><dt>Carrier</dt><dd>UPS Ground</dd><dt>Tracking</dt><dd>1Z 999 AA1 01 2345 6784</dd><dt>Ship to</dt><dd>J. Doe, 12 Elm St, Portland OR</dd></dl></div>
<div class="col"><table class="tbl"><thead><tr><th>Item</th><th class="num">Qty</th><th class="num">Price</th></tr></thead>
<tbody><tr><td>Merino hoodie, charcoal, M</td><td class="num">1</td><td class="num">$89.00</td></tr><tr><td>Wool socks (3-pack)</td><td class="num">2</td><td class="num">$36.00</td></tr></tbody>
<tfoot><tr><td colspan="2">Total</td><td class="num"><b>$125.00</b></td></tr></tfoot></table></div></div>
<p><a class="btn btn--primary" href="#">Track package</a> <button class="btn" type="button">Return items</button></p></div>`,
  });
}

/** "Checkout for ORD-2003" with a quantity stepper; the hold countdown ticks on its own. */
export function checkoutQuantityPage(): string {
  return htmlDoc({
    title: 'Checkout · ORD-2003',
    brand: 'Basket & Co',
    css: '.qty{display:inline-flex;align-items:center;border:1px solid #d0d7de;border-radius:6px}.qty button{border:0;background:#f6f8fa;width:32px;height:32px;font-size:18px;cursor:pointer}.qty input{width:44px;text-align:center;border:0;font:inherit}.hold{background:#fff8c5;padding:8px 12px;border-radius:6px;font-size:13px}',
    body: `${crumbs('Cart', 'Checkout')}
<div class="hold">Items in your cart are reserved for <span class="js-hold">09:59</span></div>
<div class="panel"><h1 class="h1" style="font-size:24px;margin:0 0 6px">Checkout for ORD-2003</h1>
<div class="muted">Status: <span class="status-label">Awaiting payment</span></div>
<table class="tbl" style="margin-top:12px"><thead><tr><th>Item</th><th>Quantity</th><th class="num">Line total</th></tr></thead>
<tbody><tr><td>Ceramic pour-over set</td><td><div class="qty"><button type="button" aria-label="Decrease quantity" class="js-dec">−</button><input class="js-qty" aria-label="Quantity" value="2" inputmode="numeric" readonly><button type="button" aria-label="Increase quantity" class="js-inc">+</button></div></td><td class="num js-line">$64.00</td></tr></tbody></table>
<dl class="kv" style="margin-top:12px"><dt>Subtotal</dt><dd class="js-sub">$64.00</dd><dt>Shipping</dt><dd>$5.00</dd><dt>Total</dt><dd class="js-total">$69.00</dd></dl>
<p><button class="btn btn--primary" type="button">Pay now</button></p></div>`,
    script: `(function(){var unit=32,q=2,left=599;function money(n){return '$'+n.toFixed(2)}
function draw(){document.querySelector('.js-qty').value=String(q);document.querySelector('.js-line').textContent=money(unit*q);document.querySelector('.js-sub').textContent=money(unit*q);document.querySelector('.js-total').textContent=money(unit*q+5)}
document.querySelector('.js-inc').addEventListener('click',function(){q=Math.min(9,q+1);draw()});document.querySelector('.js-dec').addEventListener('click',function(){q=Math.max(1,q-1);draw()});
setInterval(function(){left=left>0?left-1:599;document.querySelector('.js-hold').textContent=String(Math.floor(left/60)).padStart(2,'0')+':'+String(left%60).padStart(2,'0')},1000)})();`,
  });
}

/** A basket whose only total is painted on a canvas: the page states a total nobody can read from the DOM. */
export function cartCanvasPage(): string {
  return htmlDoc({
    title: 'Your basket — Greenleaf Market',
    brand: 'Greenleaf Market',
    body: `${crumbs('Home', 'Basket')}
<div class="panel"><h1 style="font-size:24px;margin:0 0 10px">Your basket</h1>
<div class="cart-lines"><div class="cart-line"><span class="nm">Organic oat milk 1L</span> <span class="muted">× 4</span></div><div class="cart-line"><span class="nm">Sourdough loaf</span> <span class="muted">× 1</span></div><div class="cart-line"><span class="nm">Free-range eggs (12)</span> <span class="muted">× 2</span></div></div>
<div class="cart-total" style="margin-top:14px"><span class="muted">Order total</span><br><canvas class="js-total" width="260" height="48"></canvas></div>
<p><button class="btn btn--primary" type="button">Proceed to checkout</button></p></div>`,
    script: `(function(){var c=document.querySelector('.js-total').getContext('2d');c.fillStyle='#111827';c.font='bold 30px sans-serif';c.fillText('£23.46',4,36)})();`,
  });
}

/** The badge was rendered by the server; the page then fetches the order and the API says otherwise. */
export function orderNetworkPage(): string {
  return htmlDoc({
    title: 'Order ORD-4410 — Parcelly',
    brand: 'Parcelly',
    body: `${crumbs('Orders', 'ORD-4410')}
<div class="panel"><div class="ttl"><h1>Order ORD-4410</h1><span class="pill pill--amber order-badge">Processing</span></div>
<p class="muted">Placed 11 April 2024</p>
<dl class="kv"><dt>Items</dt><dd>Desk lamp, LED bulbs ×2</dd><dt>Total</dt><dd class="js-total">$58.40</dd></dl>
<p><button class="btn" type="button">Contact seller</button></p></div>`,
    script: `fetch('/gallery/html/_api/orders/ORD-4410',{headers:{accept:'application/json'}}).then(function(r){return r.json()}).then(function(o){document.querySelector('.js-total').textContent='$'+o.total.toFixed(2)});`,
  });
}

/** The JSON the order page fetches: the order was cancelled, which the stale badge does not say. */
export const NETWORK_ORDER = { id: 'ORD-4410', status: 'cancelled', total: 58.4, currency: 'USD', cancelled_at: '2024-04-12T09:14:00Z' } as const;

/** No badge, no status field: the order's state is only in a sentence. */
export function orderProsePage(): string {
  return htmlDoc({
    title: 'Order details — Fernhill Books',
    brand: 'Fernhill Books',
    body: `${crumbs('My account', 'Order history', 'Order ORD-7781')}
<div class="panel"><h1 style="font-size:22px;margin:0 0 8px">Order details</h1>
<dl class="kv"><dt>Order number</dt><dd>ORD-7781</dd><dt>Order date</dt><dd>9 March 2024</dd><dt>Payment</dt><dd>Visa ending 4242</dd></dl>
<div class="notice" style="margin-top:14px;padding:12px;background:#f6f8fa;border-left:3px solid #8c959f">Your order was cancelled on 12 March 2024 at your request. A refund of £31.98 was issued to your card and should appear within 5 working days.</div>
<table class="tbl" style="margin-top:12px"><thead><tr><th>Title</th><th class="num">Qty</th><th class="num">Price</th></tr></thead><tbody><tr><td>The Overstory</td><td class="num">1</td><td class="num">£12.99</td></tr><tr><td>Piranesi</td><td class="num">1</td><td class="num">£18.99</td></tr></tbody></table>
<p><a class="btn" href="#">Buy again</a></p></div>`,
  });
}

/** A labelled status with no id anywhere on the page: the state is known, the resource is not. */
export function guestCheckoutPage(): string {
  return htmlDoc({
    title: 'Complete your purchase — Tidewater Goods',
    brand: 'Tidewater Goods',
    body: `${crumbs('Cart', 'Checkout', 'Payment')}
<div class="panel"><h1 style="font-size:22px;margin:0 0 10px">Complete your purchase</h1>
<div class="summary-row"><span class="lbl">Status:</span> <span class="val">Awaiting payment</span></div>
<div class="summary-row"><span class="lbl">Items:</span> <span class="val">Linen throw ×1, Candle set ×2</span></div>
<div class="summary-row"><span class="lbl">Total:</span> <span class="val">$96.50</span></div>
<form style="margin-top:12px" onsubmit="return false"><label>Card number <input autocomplete="cc-number" inputmode="numeric"></label> <button class="btn btn--primary" type="submit">Pay $96.50</button></form></div>`,
  });
}

/** A confirmation page whose only identifier is a bare number behind a label: "Order number: 2003". */
export function orderNumberLabelPage(): string {
  return htmlDoc({
    title: 'Thank you for your order! — Tidewater Goods',
    brand: 'Tidewater Goods',
    body: `<div class="panel"><h1 style="font-size:24px;margin:0 0 8px">Thank you for your order!</h1>
<p>We’ve emailed a confirmation to j.doe@example.com.</p>
<dl class="kv"><dt>Order number:</dt><dd>2003</dd><dt>Payment status:</dt><dd>Paid</dd><dt>Estimated delivery:</dt><dd>Tue 18 June – Thu 20 June</dd></dl>
<p><a class="btn btn--primary" href="#">View order</a> <a class="btn" href="#">Continue shopping</a></p></div>`,
  });
}
