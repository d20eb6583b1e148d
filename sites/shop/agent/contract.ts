/**
 * The shop's Semantic State Contract: the document at /agent/v1/contract, the contract state of an
 * order (a paid order waiting for its refund is `cancellation_pending`), and what may be done in
 * each state. One table (ACTIONS) feeds the document, the precondition check and every
 * `available_actions` list, so they cannot disagree.
 */
import { AgentContract, KEY_DIRECTORY_PATH, type ContractAction } from '../../../src/protocol/agent-contract.ts';
import type { ActionSummary } from '../../../src/protocol/action.ts';
import { CANCEL_REASONS, MAX_ADDRESS_LENGTH, STATUS_LABELS, type Order } from '../store.ts';

export const CONTRACT_PATH = '/agent/v1/contract';
export const ORDER_TYPE = 'order';
const SCOPE_NAMESPACE = 'orders';
/** Longest `expires - created` of a request signature, seconds. */
export const MAX_SIGNATURE_VALIDITY_S = 300;
/** Longest token lifetime the shop grants (a longer request is capped). */
export const MAX_TOKEN_TTL_S = 30 * 24 * 3600;

const CONTRACT_STATES = ['awaiting_payment', 'paid', 'cancellation_pending', 'shipped', 'delivered', 'cancelled'] as const;
export type ContractState = (typeof CONTRACT_STATES)[number];

const STATE_TITLES: Record<ContractState, string> = { ...STATUS_LABELS, cancellation_pending: 'Cancellation pending (refund in progress)' };

export function contractStateOf(order: Order): ContractState {
  return order.status === 'paid' && order.cancellation_requested ? 'cancellation_pending' : order.status;
}

const noInput = { type: 'object', properties: {}, additionalProperties: false };

const ACTIONS: readonly ContractAction[] = [
  {
    name: 'orders.cancel',
    resource_type: ORDER_TYPE,
    title: 'Cancel the order',
    description: 'An unpaid order is cancelled at once; a paid one is accepted and confirmed when its refund settles.',
    read_only: false,
    consequential: true,
    payment: false,
    requires_approval: true,
    changes: ['order_cancelled'],
    allowed_in_states: ['awaiting_payment', 'paid'],
    input_schema: {
      type: 'object',
      properties: { reason: { type: 'string', enum: [...CANCEL_REASONS] } },
      required: ['reason'],
      additionalProperties: false,
    },
    may_be_async: true,
  },
  {
    name: 'orders.pay',
    resource_type: ORDER_TYPE,
    title: 'Pay for the order with the card on file',
    read_only: false,
    consequential: true,
    payment: true,
    requires_approval: true,
    changes: ['order_paid'],
    allowed_in_states: ['awaiting_payment'],
    input_schema: noInput,
    may_be_async: false,
  },
  {
    name: 'orders.track',
    resource_type: ORDER_TYPE,
    title: 'Track the shipment',
    read_only: true,
    consequential: false,
    payment: false,
    requires_approval: false,
    changes: [],
    allowed_in_states: ['shipped', 'delivered'],
    input_schema: noInput,
    may_be_async: false,
  },
  {
    name: 'orders.request_return',
    resource_type: ORDER_TYPE,
    title: 'Request a return',
    read_only: false,
    consequential: true,
    payment: false,
    requires_approval: true,
    changes: ['return_requested'],
    allowed_in_states: ['shipped', 'delivered'],
    input_schema: noInput,
    may_be_async: false,
  },
  {
    name: 'orders.change_address',
    resource_type: ORDER_TYPE,
    title: 'Change the shipping address',
    read_only: false,
    consequential: true,
    payment: false,
    requires_approval: true,
    changes: ['address_changed'],
    allowed_in_states: ['awaiting_payment', 'paid'],
    input_schema: {
      type: 'object',
      properties: { address: { type: 'string', minLength: 5, maxLength: MAX_ADDRESS_LENGTH } },
      required: ['address'],
      additionalProperties: false,
    },
    may_be_async: false,
  },
];

export function actionNamed(name: string): ContractAction | undefined {
  return ACTIONS.find((a) => a.name === name);
}

/** The scope an action needs: `orders.request_return` → `orders:request_return`. */
export function scopeOf(action: ContractAction): string {
  return `${SCOPE_NAMESPACE}:${action.name.slice(action.name.indexOf('.') + 1)}`;
}

export const READ_SCOPE = `${SCOPE_NAMESPACE}:read`;
export const WILDCARD_SCOPE = `${SCOPE_NAMESPACE}:*`;

function summaryOf(action: ContractAction): ActionSummary {
  return { action: action.name, requires_approval: action.requires_approval, via: 'site_contract', read_only: action.read_only, consequential: action.consequential };
}

/** What may be done in this state. */
export function availableIn(state: ContractState): ActionSummary[] {
  return ACTIONS.filter((a) => a.allowed_in_states.includes(state)).map(summaryOf);
}

export const OFFERED_SCOPES: readonly { scope: string; title: string }[] = [
  { scope: READ_SCOPE, title: 'See your orders and their status' },
  ...ACTIONS.map((a) => ({ scope: scopeOf(a), title: a.title })),
  { scope: WILDCARD_SCOPE, title: 'Everything on your orders' },
];

export function buildContract(origin: string): AgentContract {
  return AgentContract.parse({
    // Written out as a site would; AgentContract.parse refuses any other version.
    spec: 'steward-contract/1',
    site: { name: 'Larkspur Home Goods', origin },
    resources: [
      {
        type: ORDER_TYPE,
        title: 'Order',
        scope_namespace: SCOPE_NAMESPACE,
        states: CONTRACT_STATES.map((name) => ({ name, title: STATE_TITLES[name], terminal: name === 'cancelled' })),
        page_path_template: '/orders/{id}',
      },
    ],
    actions: ACTIONS,
    endpoints: {
      resource_state: '/agent/v1/resources/{type}/{id}',
      execute: '/agent/v1/actions/execute',
      action_status: '/agent/v1/actions/{action_id}',
      token: '/agent/v1/tokens',
      revoke: '/agent/v1/tokens/revoke',
      key_directory: KEY_DIRECTORY_PATH,
    },
    auth: {
      token_type: 'delegated',
      signature: {
        profile: 'web-bot-auth',
        algorithms: ['ed25519'],
        required_components: ['@method', '@authority', '@path', 'signature-agent'],
        max_validity_s: MAX_SIGNATURE_VALIDITY_S,
      },
      scopes: OFFERED_SCOPES,
      max_token_ttl_s: MAX_TOKEN_TTL_S,
    },
  });
}
