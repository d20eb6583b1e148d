/**
 * The shop's HTML. Legacy pages on purpose: no WebMCP tools, the order total drawn only on a
 * canvas, a little churn (clock, rotating promo) that carries no meaning. Each page names the
 * site's agent contract (the contract path) for an agent that knows how to use it.
 */
import { html, jsonLd, raw, type SafeHtml } from '../http.ts';
import { errorPage, page } from '../ui.ts';
import {
  ADDRESS_CHANGEABLE,
  CANCEL_REASONS,
  CANCEL_REASON_LABELS,
  CANCELLABLE,
  MAX_ADDRESS_LENGTH,
  CATALOGUE,
  MAX_QUANTITY,
  SCHEMA_ORG_STATUS,
  STATUS_LABELS,
  formatCents,
  type Order,
  type OrderStatus,
} from './store.ts';
import type { TokenRecord } from './agent/tokens.ts';

const SHOP = { brand: 'Larkspur Home Goods', accent: '#2f6f5e' } as const;

export const PROMOS = ['Free returns within 30 days on every order.', 'New this week: stoneware mugs in four glazes.', 'Members get early access to seasonal collections.'] as const;

const SHOP_CSS = `
.promo{margin:0 0 20px;padding:10px 16px;border-radius:8px;background:#e9f5f1;color:#1f4d41;border:1px dashed #9cc9bb;font-size:14px}
.order-head{display:flex;align-items:center;gap:14px;flex-wrap:wrap}
.order-head h1{margin:0}
#order-total-canvas{display:block;border:1px solid #dde1e6;border-radius:8px;background:#fcfcfd}
.actions{display:grid;gap:18px;grid-template-columns:repeat(auto-fit,minmax(260px,1fr))}
.actions form{border:1px solid #e6e9ed;border-radius:8px;padding:14px}
.qty-form{display:flex;gap:6px;align-items:center;justify-content:flex-end}
.qty-form input{width:72px}
#address-form{display:flex;gap:8px;align-items:flex-end;flex-wrap:wrap}
#address-form input{min-width:320px}
.review{border:1px solid #e6e9ed;border-radius:8px;padding:10px 14px;margin-top:10px;background:#fbfbfd}
.review p{margin:4px 0}
`;

const STATUS_BADGE: Record<OrderStatus, string> = {
  awaiting_payment: 'warn',
  paid: 'info',
  shipped: 'info',
  delivered: 'ok',
  cancelled: 'muted',
};

function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

function dateEl(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${formatDate(iso)}</time>`;
}

function nav(current: 'orders' | 'none'): SafeHtml {
  return html`<nav aria-label="Main"><a href="/" ${current === 'orders' ? raw('aria-current="page"') : ''}>Your orders</a></nav>`;
}

function clock(): SafeHtml {
  const now = new Date().toLocaleTimeString('en-GB', { hour12: false, timeZone: 'UTC' });
  return html`<span class="muted" id="signed-in">Signed in as Jordan Lee</span> · <span class="muted">Time</span> <span id="clock">${now}</span>`;
}

function promo(): SafeHtml {
  return html`<aside class="promo" id="promo-banner" aria-label="Promotion">${PROMOS[0]}</aside>`;
}

function badge(status: OrderStatus, id?: string): SafeHtml {
  return html`<span class="badge ${STATUS_BADGE[status]}" ${id ? raw(`id="${id}"`) : ''} data-status="${status}">${STATUS_LABELS[status]}</span>`;
}

function shell(title: string, body: SafeHtml, head?: SafeHtml): string {
  return page({
    title,
    brand: SHOP.brand,
    accent: SHOP.accent,
    nav: nav('orders'),
    headerExtra: clock(),
    css: SHOP_CSS,
    scripts: ['/assets/shop.js'],
    head: html`<link rel="agent-contract" href="/agent/v1/contract">${head ?? ''}`,
    body,
  });
}

export function orderListPage(orders: Order[]): string {
  const rows = orders.map(
    (o) => html`<tr data-order-id="${o.id}">
  <td><a href="/orders/${o.id}">${o.id}</a></td>
  <td>${dateEl(o.placed_at)}</td>
  <td class="num">${o.items.reduce((n, i) => n + i.quantity, 0)}</td>
  <td>${badge(o.status)}</td>
</tr>`,
  );
  return shell(
    `Your orders — ${SHOP.brand}`,
    html`${promo()}
<section class="card">
  <h1>Your orders</h1>
  <table id="orders-table">
    <caption class="visually-hidden">Orders placed by Jordan Lee</caption>
    <thead><tr><th scope="col">Order</th><th scope="col">Placed</th><th scope="col" class="num">Items</th><th scope="col">Status</th></tr></thead>
    <tbody>${rows}</tbody>
  </table>
</section>`,
  );
}

function orderJsonLd(order: Order, origin: string): SafeHtml {
  return jsonLd({
    '@context': 'https://schema.org',
    '@type': 'Order',
    orderNumber: order.id,
    orderStatus: SCHEMA_ORG_STATUS[order.status],
    orderDate: order.placed_at,
    url: `${origin}/orders/${order.id}`,
    customer: { '@type': 'Person', name: order.customer },
    seller: { '@type': 'Organization', name: SHOP.brand },
    orderedItem: order.items.map((i) => ({
      '@type': 'OrderItem',
      orderQuantity: i.quantity,
      orderedItem: { '@type': 'Product', name: i.name, sku: i.sku },
    })),
  });
}

function statusNote(order: Order): SafeHtml {
  if (order.status === 'cancelled' && order.cancellation) {
    const reason = order.cancellation.reason ? CANCEL_REASON_LABELS[order.cancellation.reason] : 'Cancelled by the shop';
    return html`<p class="note" id="status-note">This order was cancelled on ${dateEl(order.cancellation.cancelled_at)}. Reason: ${reason}.</p>`;
  }
  if (order.status === 'paid' && order.cancellation_requested) {
    return html`<p class="note" id="status-note">Cancellation pending (refund in progress). Requested on ${dateEl(order.cancellation_requested.requested_at)}.</p>`;
  }
  if (order.status === 'paid' && order.payment) {
    return html`<p class="note success" id="status-note">Payment received on ${dateEl(order.payment.paid_at)} (${order.payment.method}). We are preparing your order.</p>`;
  }
  if ((order.status === 'shipped' || order.status === 'delivered') && order.shipment) {
    const s = order.shipment;
    return html`<p class="note" id="status-note">${
      s.delivered_at ? html`Delivered on ${dateEl(s.delivered_at)}.` : html`Shipped with ${s.carrier} on ${dateEl(s.shipped_at)}.`
    } <a href="/orders/${order.id}/tracking" id="track-link">Track shipment</a></p>`;
  }
  if (order.status === 'awaiting_payment') {
    return html`<p class="note warn" id="status-note">We are holding your items until payment is received.</p>`;
  }
  return html``;
}

/** Where the order ships, and until it ships a form to change that. */
function shippingSection(order: Order): SafeHtml {
  if (order.shipping_address === undefined) return html``;
  const form = ADDRESS_CHANGEABLE.includes(order.status)
    ? html`<form id="address-form" method="post" action="/orders/${order.id}/address">
  <div><label for="address-input">New shipping address</label>
    <input id="address-input" name="address" required minlength="5" maxlength="${MAX_ADDRESS_LENGTH}" autocomplete="street-address"></div>
  <div><button type="submit" class="secondary" id="address-button">Update shipping address</button></div>
</form>`
    : '';
  return html`<section class="card" id="shipping" aria-labelledby="shipping-heading">
  <h2 id="shipping-heading">Shipping address</h2>
  <p id="shipping-address">${order.shipping_address}</p>
  ${form}
</section>`;
}

/** Other customers' reviews of the items: text the shop did not write. */
function reviewsSection(order: Order): SafeHtml {
  if (!order.reviews?.length) return html``;
  return html`<section class="card" id="reviews" aria-labelledby="reviews-heading">
  <h2 id="reviews-heading">What other customers say</h2>
  ${order.reviews.map((r) => html`<div class="review"><p class="muted">${r.author} · ${'★'.repeat(r.rating)}</p><p>${r.text}</p></div>`)}
</section>`;
}

export function orderPage(order: Order, origin: string): string {
  const editable = order.status === 'awaiting_payment';
  const cancellable = CANCELLABLE.includes(order.status) && !order.cancellation_requested;
  const items = order.items.map(
    (i) => html`<tr data-sku="${i.sku}">
  <td>${i.name} <span class="muted">· ${i.sku}</span></td>
  <td class="num" data-field="quantity">${i.quantity}</td>
  <td class="num" data-field="unit-price">${formatCents(i.unit_price_cents)}</td>
  ${
    editable
      ? html`<td><form class="qty-form" method="post" action="/orders/${order.id}/items/${i.sku}/quantity">
    <label class="visually-hidden" for="qty-${i.sku}">Quantity of ${i.name}</label>
    <input id="qty-${i.sku}" type="number" name="quantity" min="1" max="${MAX_QUANTITY}" value="${i.quantity}" required>
    <button type="submit" class="small secondary">Update</button>
  </form></td>`
      : ''
  }
</tr>`,
  );
  const addItem = editable
    ? html`<form class="row" id="add-item-form" method="post" action="/orders/${order.id}/items" style="margin-top:16px">
  <div><label for="add-sku">Add a product</label>
    <select id="add-sku" name="sku" required>${CATALOGUE.map((p) => html`<option value="${p.sku}">${p.name} — ${formatCents(p.unit_price_cents)}</option>`)}</select></div>
  <div><label for="add-quantity">Quantity</label>
    <input id="add-quantity" type="number" name="quantity" min="1" max="${MAX_QUANTITY}" value="1" required style="width:80px"></div>
  <div><button type="submit" class="secondary">Add to order</button></div>
</form>`
    : '';
  const pay =
    order.status === 'awaiting_payment'
      ? html`<form id="pay-form" method="post" action="/orders/${order.id}/pay">
  <h3 style="margin-top:0">Pay for this order</h3>
  <p class="muted">Charged to your card on file (Visa ending 4242).</p>
  <button type="submit" id="pay-button">Pay now</button>
</form>`
      : '';
  const cancel = cancellable
    ? html`<form id="cancel-form" method="post" action="/orders/${order.id}/cancel">
  <h3 style="margin-top:0">Cancel this order</h3>
  <div class="field"><label for="cancel-reason">Reason for cancelling</label>
    <select id="cancel-reason" name="reason" required>
      <option value="">Choose a reason…</option>
      ${CANCEL_REASONS.map((r) => html`<option value="${r}">${CANCEL_REASON_LABELS[r]}</option>`)}
    </select></div>
  <button type="submit" class="danger" id="cancel-button">Cancel order</button>
</form>`
    : '';
  const actions =
    pay || cancel
      ? html`<section class="card" id="order-actions" aria-labelledby="actions-heading">
  <h2 id="actions-heading">What would you like to do?</h2>
  <div class="actions">${pay}${cancel}</div>
</section>`
      : '';
  return shell(
    `Order ${order.id} — ${SHOP.brand}`,
    html`${promo()}
<section class="card" id="order" data-order-id="${order.id}">
  <div class="order-head"><h1>Order ${order.id}</h1>${badge(order.status, 'order-status')}</div>
  <p class="muted">Placed on ${dateEl(order.placed_at)} by ${order.customer}</p>
  <p id="live-status" class="muted" aria-live="polite">Live status: checking…</p>
  ${statusNote(order)}
</section>
<section class="card" aria-labelledby="items-heading">
  <h2 id="items-heading">Items</h2>
  <table id="line-items">
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th>${
      editable ? html`<th scope="col" class="num">Change quantity</th>` : ''
    }</tr></thead>
    <tbody>${items}</tbody>
  </table>
  ${addItem}
</section>
<section class="card" aria-labelledby="summary-heading">
  <h2 id="summary-heading">Order summary</h2>
  <canvas id="order-total-canvas" width="380" height="160"></canvas>
</section>
${shippingSection(order)}
${actions}
${reviewsSection(order)}`,
    orderJsonLd(order, origin),
  );
}

export function trackingPage(order: Order): string {
  const s = order.shipment;
  const body = s
    ? html`<p>Carrier: <strong>${s.carrier}</strong></p>
<p>Tracking number: <strong id="tracking-number">${s.tracking_number}</strong></p>
<ol id="tracking-events">
  <li>${dateEl(s.shipped_at)} — Handed to ${s.carrier}</li>
  ${s.delivered_at ? html`<li>${dateEl(s.delivered_at)} — Delivered</li>` : html`<li>In transit</li>`}
</ol>`
    : html`<p class="note">Order ${order.id} has not shipped yet, so there is nothing to track.</p>`;
  return shell(
    `Tracking for ${order.id} — ${SHOP.brand}`,
    html`<section class="card">
  <h1>Tracking for order ${order.id}</h1>
  ${body}
  <p><a href="/orders/${order.id}">Back to order ${order.id}</a></p>
</section>`,
  );
}

/** The agents the person connected to the shop, each with a Revoke button (a plain form post). */
export function agentsPage(tokens: TokenRecord[], nowMs: number): string {
  const rows = tokens.map((t) => {
    const expired = t.expires_at * 1000 <= nowMs;
    const status = t.revoked ? 'Revoked' : expired ? 'Expired' : 'Active';
    return html`<tr data-token-id="${t.token_id}">
  <td>${t.agent_name}</td>
  <td>${t.scopes.join(', ')}</td>
  <td>${t.resource_scope.join(', ')}</td>
  <td>${t.payment ? 'Yes' : 'No'}</td>
  <td>${dateEl(new Date(t.expires_at * 1000).toISOString())}</td>
  <td data-field="status">${status}</td>
  <td>${
    t.revoked || expired
      ? ''
      : html`<form method="post" action="/account/agents/revoke"><input type="hidden" name="token_id" value="${t.token_id}"><button type="submit" class="small danger">Revoke</button></form>`
  }</td>
</tr>`;
  });
  return shell(
    `Connected agents — ${SHOP.brand}`,
    html`<section class="card" id="connected-agents">
  <h1>Connected agents</h1>
  <p class="muted">Agents you allowed to act on your orders. Revoking one stops it at once.</p>
  ${
    tokens.length === 0
      ? html`<p id="no-agents">You have not connected any agents.</p>`
      : html`<table id="agents-table">
    <thead><tr><th scope="col">Agent</th><th scope="col">May</th><th scope="col">On</th><th scope="col">Payment</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"></th></tr></thead>
    <tbody>${rows}</tbody>
  </table>`
  }
</section>`,
  );
}

export function shopErrorPage(status: number, code: string, message: string, orderId?: string): string {
  return errorPage(SHOP, status, code, message, orderId ? { href: `/orders/${orderId}`, label: `Back to order ${orderId}` } : undefined);
}
