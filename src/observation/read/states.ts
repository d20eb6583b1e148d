import { toSnakeCase } from './normalize.ts';

/**
 * State vocabulary: which words name a resource state, which names mean the same state, and
 * how schema.org's coarse status enums line up with the finer names pages use.
 */

/** Different spellings of one state → one canonical name. */
const SYNONYMS: Record<string, string> = {
  canceled: 'cancelled',
  payment_due: 'awaiting_payment',
  pending_payment: 'awaiting_payment',
  unpaid: 'awaiting_payment',
  awaiting_payment: 'awaiting_payment',
  in_transit: 'shipped',
  dispatched: 'shipped',
  complete: 'completed',
  done: 'completed',
  on_hold: 'on_hold',
  hold: 'on_hold',
  backorder: 'backordered',
};

/** States a short text can name on its own (a badge next to a heading: "Shipped"). */
const KNOWN_STATES = new Set([
  'awaiting_payment',
  'paid',
  'partially_paid',
  'processing',
  'confirmed',
  'preparing',
  'ready_for_pickup',
  'shipped',
  'partially_shipped',
  'out_for_delivery',
  'delivered',
  'cancelled',
  'refunded',
  'returned',
  'on_hold',
  'backordered',
  'completed',
  'failed',
  'declined',
  'expired',
  'pending',
  'active',
  'inactive',
  'draft',
  'open',
  'closed',
  'resolved',
  'scheduled',
  'booked',
  'rescheduled',
  'checked_in',
  'no_show',
  'approved',
  'rejected',
  'submitted',
  'in_review',
  'archived',
  'overdue',
  'in_progress',
  'problem',
]);

/** schema.org enumeration members (OrderStatus, ReservationStatusType, PaymentStatusType) → state. */
const SCHEMA_ORG: Record<string, string> = {
  OrderPaymentDue: 'awaiting_payment',
  OrderProcessing: 'processing',
  OrderInTransit: 'shipped',
  OrderDelivered: 'delivered',
  OrderCancelled: 'cancelled',
  OrderReturned: 'returned',
  OrderProblem: 'problem',
  OrderPickupAvailable: 'ready_for_pickup',
  ReservationConfirmed: 'confirmed',
  ReservationCancelled: 'cancelled',
  ReservationPending: 'pending',
  ReservationHold: 'on_hold',
  PaymentDue: 'awaiting_payment',
  PaymentPastDue: 'overdue',
  PaymentComplete: 'paid',
  PaymentAutomaticallyApplied: 'paid',
  PaymentDeclined: 'declined',
};

/**
 * A coarse state agrees with any of these finer ones: schema.org has one `OrderProcessing` for
 * everything between payment and shipping, which a shop may call "Paid" or "Preparing".
 */
const BROADER: Record<string, readonly string[]> = {
  processing: ['paid', 'confirmed', 'preparing', 'in_progress', 'partially_shipped'],
  pending: ['awaiting_payment', 'on_hold', 'submitted', 'in_review'],
};

/** Text or machine value → canonical snake_case state name. */
export function canonicalState(raw: string): string | undefined {
  const trimmed = raw.trim();
  const schema = /^(?:https?:\/\/schema\.org\/)?([A-Z][A-Za-z]+)$/.exec(trimmed)?.[1];
  if (schema && SCHEMA_ORG[schema]) return SCHEMA_ORG[schema];
  const snake = toSnakeCase(trimmed);
  if (!snake) return undefined;
  return SYNONYMS[snake] ?? snake;
}

/** True when the text, on its own, names a well-known state (used for badges without a label). */
export function isKnownState(state: string): boolean {
  return KNOWN_STATES.has(state);
}

/** True when two canonical states describe the same situation (equal, or one is the other's coarse form). */
export function statesAgree(a: string, b: string): boolean {
  return a === b || (BROADER[a]?.includes(b) ?? false) || (BROADER[b]?.includes(a) ?? false);
}

/** True when `state` is a coarse name that a finer one should replace when both agree. */
export function isCoarseState(state: string): boolean {
  return state in BROADER;
}
