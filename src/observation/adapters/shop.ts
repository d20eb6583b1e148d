import { Adapter, type AdapterDefinition } from './format.ts';

/**
 * The adapter for the demo shop (Larkspur Home Goods, sites/shop/). Tests run the shop on an
 * ephemeral port, so by default it matches any origin by path and by the shop's title; pass
 * `origin` to pin it to one.
 */

const STATUS_LABELS = {
  'Awaiting payment': 'awaiting_payment',
  Paid: 'paid',
  Shipped: 'shipped',
  Delivered: 'delivered',
  Cancelled: 'cancelled',
} as const;

const CANCEL_REASONS = ['ordered_by_mistake', 'found_cheaper', 'delivery_too_slow', 'other'];
const MAX_QUANTITY = 20;

function shopAdapterDefinition(options: { origin?: string } = {}): AdapterDefinition {
  return {
    id: 'larkspur-shop.order',
    title: 'Larkspur Home Goods: order page',
    match: {
      ...(options.origin ? { origins: [options.origin] } : {}),
      path: '/orders/:id',
      marker: { title: '— Larkspur Home Goods$', json_ld_type: 'Order' },
    },
    resource: { type: 'order', id: { read: { from: 'url_group', group: 'id' } } },
    // The status badge sits right after the "Order ORD-…" heading.
    state: { read: { from: 'after_heading', heading: '^Order [A-Z0-9-]+$' }, kind: 'state', map: { ...STATUS_LABELS } },
    fields: {
      placed_at: { read: { from: 'text', pattern: '^Placed on (.+?) by ' }, kind: 'date' },
    },
    // The order summary (subtotal, shipping, tax, total) is drawn on a canvas only.
    expect: ['total'],
    actions: [
      {
        name: 'orders.pay',
        title: 'Pay for this order',
        description: 'Charges the card on file for the whole order.',
        target: { role: 'button', name: 'Pay now' },
        read_only: false,
        consequential: true,
        payment: true,
        changes: ['order_paid'],
        states: ['awaiting_payment'],
      },
      {
        name: 'orders.cancel',
        title: 'Cancel this order',
        target: { role: 'button', name: 'Cancel order' },
        inputs: {
          reason: { element: { role: 'combobox', name: 'Reason for cancelling' }, schema: { type: 'string', enum: CANCEL_REASONS } },
        },
        read_only: false,
        consequential: true,
        changes: ['order_cancelled'],
        states: ['awaiting_payment', 'paid'],
      },
      {
        name: 'orders.add_item',
        title: 'Add a product to this order',
        target: { role: 'button', name: 'Add to order' },
        inputs: {
          sku: { element: { role: 'combobox', name: 'Add a product' }, schema: { type: 'string', minLength: 1 } },
          quantity: { element: { role: 'spinbutton', name: 'Quantity' }, schema: { type: 'integer', minimum: 1, maximum: MAX_QUANTITY } },
        },
        read_only: false,
        consequential: false,
        changes: ['item_added'],
        states: ['awaiting_payment'],
      },
      {
        name: 'orders.track',
        title: 'Track the shipment',
        target: { role: 'link', name: 'Track shipment' },
        read_only: true,
        consequential: false,
        states: ['shipped', 'delivered'],
      },
    ],
  };
}

/** The shop adapter, validated (throws if the definition above were ever malformed). */
export function shopAdapter(options: { origin?: string } = {}): Adapter {
  return Adapter.parse(shopAdapterDefinition(options));
}
