/** The shop's routes: HTML pages, real form posts, a JSON API and the `/__demo/` test controls. */
import { z } from 'zod';
import { HttpError, RequestLog, Router, parseBody, redirect, sendBytes, sendHtml, sendJson, sendScript, wantsJson, type RequestContext } from '../http.ts';
import type { DemoSite } from '../site.ts';
import { SHOP_SCRIPT } from './client.ts';
import { CONTRACT_LINK_HEADER, createAgentApi, type AgentApiOptions } from './agent/routes.ts';
import { orderListPage, orderPage, shopErrorPage, trackingPage } from './pages.ts';
import { CANCEL_REASONS, CATALOGUE, MAX_ADDRESS_LENGTH, MAX_QUANTITY, ORDER_STATUSES, STATUS_LABELS, ShopStore, orderTotals, type Order, type OrderStatus } from './store.ts';

const CancelBody = z.object({ reason: z.enum(CANCEL_REASONS) });
const EmptyBody = z.object({}).loose();
const Quantity = z.coerce.number().int().min(1).max(MAX_QUANTITY);
const QuantityBody = z.object({ quantity: Quantity });
const AddItemBody = z.object({ sku: z.enum(CATALOGUE.map((p) => p.sku) as [string, ...string[]]), quantity: Quantity.default(1) });
const AddressBody = z.object({ address: z.string().trim().min(5, 'must be at least 5 characters').max(MAX_ADDRESS_LENGTH) });
const StatusBody = z.object({ status: z.enum(ORDER_STATUSES) }).strict();
const ApiOverrideBody = z.object({ status: z.enum(ORDER_STATUSES).nullable() }).strict();

/** The order as the JSON API reports it (status possibly overridden by a test; no totals). */
function apiOrder(order: Order, status: OrderStatus = order.status): Record<string, unknown> {
  return {
    id: order.id,
    status,
    status_label: STATUS_LABELS[status],
    placed_at: order.placed_at,
    updated_at: order.updated_at,
    customer: order.customer,
    ...(order.shipping_address !== undefined ? { shipping_address: order.shipping_address } : {}),
    currency: 'USD',
    items: order.items.map((i) => ({ sku: i.sku, name: i.name, quantity: i.quantity, unit_price_cents: i.unit_price_cents })),
    url: `/orders/${order.id}`,
  };
}

function originOf(ctx: RequestContext): string {
  const host = ctx.req.headers.host ?? 'localhost';
  return `http://${host}`;
}

/** Browser form posts are redirected back to the order page; JSON callers get the order. */
function respondToAction(ctx: RequestContext, order: Order, store: ShopStore): void {
  if (wantsJson(ctx)) sendJson(ctx.res, 200, { order: apiOrder(order), counters: store.countersFor(order.id) });
  else redirect(ctx.res, `/orders/${encodeURIComponent(order.id)}`);
}

/** On a browser form post, a refused action links back to its order. */
function htmlFriendly(orderParam: string, action: (ctx: RequestContext) => Promise<void> | void) {
  return async (ctx: RequestContext): Promise<void> => {
    try {
      await action(ctx);
    } catch (err) {
      if (err instanceof HttpError && !wantsJson(ctx)) {
        sendHtml(ctx.res, err.status, shopErrorPage(err.status, err.code, err.message, ctx.params[orderParam]));
        return;
      }
      throw err;
    }
  };
}

export function createShop(options: AgentApiOptions = {}): DemoSite {
  const store = new ShopStore();
  const log = new RequestLog();
  const agent = createAgentApi(store, options);
  const router = new Router({
    renderHtmlError: (e) => shopErrorPage(e.status, e.code, e.message),
    onRequestLogged: log.add,
  });

  const id = (ctx: RequestContext): string => ctx.params.id ?? '';
  /** A page the signed-in person sees: it carries their session cookie. */
  const sendPage = (ctx: RequestContext, body: string): void => {
    agent.ensureSession(ctx);
    sendHtml(ctx.res, 200, body);
  };

  // Pages ------------------------------------------------------------------------------------
  router.get('/', (ctx) => sendPage(ctx, orderListPage(store.list())));
  router.get('/orders', (ctx) => redirect(ctx.res, '/'));
  router.get('/orders/:id', (ctx) => sendPage(ctx, orderPage(store.get(id(ctx)), originOf(ctx))));
  router.get('/orders/:id/tracking', (ctx) => sendPage(ctx, trackingPage(store.get(id(ctx)))));
  router.get('/orders/:id/summary.bin', (ctx) => {
    const t = orderTotals(store.get(id(ctx)));
    const view = new DataView(new ArrayBuffer(16));
    [t.subtotal_cents, t.shipping_cents, t.tax_cents, t.total_cents].forEach((v, i) => view.setUint32(i * 4, v));
    sendBytes(ctx.res, new Uint8Array(view.buffer));
  });
  router.get('/assets/shop.js', (ctx) => sendScript(ctx.res, SHOP_SCRIPT));

  // Form posts (also accept JSON) -------------------------------------------------------------
  router.post(
    '/orders/:id/cancel',
    htmlFriendly('id', async (ctx) => {
      const order = store.get(id(ctx));
      const { reason } = await parseBody(ctx, CancelBody);
      respondToAction(ctx, store.cancel(order.id, reason, wantsJson(ctx) ? 'api' : 'form'), store);
    }),
  );
  router.post(
    '/orders/:id/pay',
    htmlFriendly('id', async (ctx) => {
      const order = store.get(id(ctx));
      await parseBody(ctx, EmptyBody);
      respondToAction(ctx, store.pay(order.id, wantsJson(ctx) ? 'api' : 'form'), store);
    }),
  );
  router.post(
    '/orders/:id/items/:sku/quantity',
    htmlFriendly('id', async (ctx) => {
      const order = store.get(id(ctx));
      const { quantity } = await parseBody(ctx, QuantityBody);
      respondToAction(ctx, store.setQuantity(order.id, ctx.params.sku ?? '', quantity, wantsJson(ctx) ? 'api' : 'form'), store);
    }),
  );
  router.post(
    '/orders/:id/items',
    htmlFriendly('id', async (ctx) => {
      const order = store.get(id(ctx));
      const { sku, quantity } = await parseBody(ctx, AddItemBody);
      respondToAction(ctx, store.addItem(order.id, sku, quantity, wantsJson(ctx) ? 'api' : 'form'), store);
    }),
  );
  router.post(
    '/orders/:id/address',
    htmlFriendly('id', async (ctx) => {
      const order = store.get(id(ctx));
      const { address } = await parseBody(ctx, AddressBody);
      respondToAction(ctx, store.changeAddress(order.id, address, wantsJson(ctx) ? 'api' : 'form'), store);
    }),
  );

  // JSON API -----------------------------------------------------------------------------------
  router.get('/api/orders', (ctx) =>
    sendJson(ctx.res, 200, {
      orders: store.list().map((o) => {
        const status = store.apiStatus(o.id);
        return { id: o.id, status, status_label: STATUS_LABELS[status], placed_at: o.placed_at, item_count: o.items.length, url: `/orders/${o.id}` };
      }),
    }),
  );
  router.get('/api/orders/:id', (ctx) => {
    const order = store.get(id(ctx));
    sendJson(ctx.res, 200, apiOrder(order, store.apiStatus(order.id)));
  });
  router.post('/api/orders/:id/cancel', async (ctx) => {
    const order = store.get(id(ctx));
    const { reason } = await parseBody(ctx, CancelBody);
    const updated = store.cancel(order.id, reason, 'api');
    sendJson(ctx.res, 200, { order: apiOrder(updated), counters: store.countersFor(order.id) });
  });
  router.post('/api/orders/:id/pay', async (ctx) => {
    const order = store.get(id(ctx));
    await parseBody(ctx, EmptyBody);
    const updated = store.pay(order.id, 'api');
    sendJson(ctx.res, 200, { order: apiOrder(updated), counters: store.countersFor(order.id) });
  });

  // Agent Action API (the contract path) -------------------------------------------------------------
  agent.mount(router);

  // Test-only controls ---------------------------------------------------------------------------
  const state = (): Record<string, unknown> => ({
    site: 'shop',
    generated_at: new Date().toISOString(),
    ...store.snapshot(),
    requests: log.list(),
    request_total: log.total,
    agent: agent.state(),
  });
  const reset = (): void => {
    store.reset();
    log.clear();
    agent.reset();
  };
  router.get('/__demo/state', (ctx) => sendJson(ctx.res, 200, state()));
  router.post('/__demo/reset', (ctx) => {
    reset();
    sendJson(ctx.res, 200, { ok: true, site: 'shop' });
  });
  router.post('/__demo/orders/:id', async (ctx) => {
    store.get(id(ctx));
    const { status } = await parseBody(ctx, StatusBody);
    const order = store.demoSetStatus(id(ctx), status);
    sendJson(ctx.res, 200, { ok: true, order: apiOrder(order), counters: store.countersFor(order.id) });
  });
  router.post('/__demo/orders/:id/api-override', async (ctx) => {
    const order = store.get(id(ctx));
    const { status } = await parseBody(ctx, ApiOverrideBody);
    store.setApiOverride(order.id, status);
    sendJson(ctx.res, 200, { ok: true, order_id: order.id, html_status: order.status, api_status: store.apiStatus(order.id) });
  });

  return {
    name: 'shop',
    title: SHOP_TITLE,
    // Every response names the contract, so an agent finds it from any page or call.
    listener: (req, res) => {
      res.setHeader('link', CONTRACT_LINK_HEADER);
      router.listener(req, res);
    },
    reset,
    state,
  };
}

const SHOP_TITLE = 'Larkspur Home Goods (legacy pages, no WebMCP; serves the agent contract at /agent/v1/contract)';
