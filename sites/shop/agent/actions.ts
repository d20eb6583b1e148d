/**
 * Execute on the shop's orders, after the token and signature were checked: the body, the action,
 * scope, approval, idempotency and preconditions, in that order; then the action itself, with a
 * paid order's cancellation accepted now and confirmed when its refund settles.
 */
import { z } from 'zod';
import { ExecuteBody, SiteActionResult, SiteResourceState, type ContractAction } from '../../../src/protocol/agent-contract.ts';
import { requestHash } from '../../../src/base/hash.ts';
import { resourceScopeCovers } from '../../../src/protocol/resource.ts';
import { HttpError } from '../../http.ts';
import type { EventLog } from '../../store-log.ts';
import { CANCEL_REASONS, MAX_ADDRESS_LENGTH, STATUS_LABELS, orderTotals, type Order, type ShopStore } from '../store.ts';
import { ORDER_TYPE, READ_SCOPE, WILDCARD_SCOPE, actionNamed, availableIn, contractStateOf, scopeOf } from './contract.ts';
import { SiteRefusal } from './errors.ts';
import { issuesOf, parseJsonBody } from './input.ts';
import type { IdempotencyStore, StoredResponse } from './idempotency.ts';
import type { TokenRecord } from './tokens.ts';

const DEFAULT_REFUND_DELAY_MS = 2000;
/** Bound on remembered action results (oldest first out). */
const MAX_ACTION_RECORDS = 10_000;

export interface AgentEvent {
  seq: number;
  at: string;
  type: 'token_issued' | 'token_revoked' | 'action_confirmed' | 'action_accepted' | 'action_failed';
  via: 'agent' | 'person';
  token_id?: string;
  action_id?: string;
  action?: string;
  order_id?: string;
  detail?: Record<string, unknown>;
}

const INPUTS: Record<string, z.ZodType<Record<string, unknown>>> = {
  'orders.cancel': z.strictObject({ reason: z.enum(CANCEL_REASONS) }),
  'orders.pay': z.strictObject({}),
  'orders.track': z.strictObject({}),
  'orders.request_return': z.strictObject({}),
  'orders.change_address': z.strictObject({ address: z.string().trim().min(5).max(MAX_ADDRESS_LENGTH) }),
};

const IdempotencyKey = z.string().regex(/^[\x21-\x7e]{1,255}$/);

/** `If-Match: "7"` → 7. */
function parseIfMatch(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const m = /^(?:W\/)?"(\d{1,15})"$/.exec(value.trim());
  if (!m?.[1]) throw new SiteRefusal('INVALID_INPUT', 'If-Match must be a quoted state_version, e.g. "7".', { issues: [{ path: 'If-Match', message: 'must be "<state_version>"' }] });
  return Number(m[1]);
}

function tokenCovers(record: TokenRecord, scope: string, ref: { type: string; id: string }): boolean {
  return (record.scopes.includes(scope) || record.scopes.includes(WILDCARD_SCOPE)) && record.resource_scope.some((s) => resourceScopeCovers(s, ref));
}

function respond(status: number, body: unknown, headers: Record<string, string> = {}): StoredResponse {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

interface ActionRecord {
  token_id: string;
  /** The agent key the token is bound to: another token of that key may read the status too (spec §5.4). */
  key_thumbprint: string;
  order_id: string;
  result: SiteActionResult;
}

export interface ExecuteRequest {
  token: TokenRecord;
  raw: Buffer;
  ifMatch: string | undefined;
  idempotencyKey: string | undefined;
}

export class AgentActions {
  private records = new Map<string, ActionRecord>();
  /** Pending refunds by action id, with their settlement timer (null: settled only by hand). */
  private timers = new Map<string, NodeJS.Timeout | null>();
  private refundDelayMs: number | null = DEFAULT_REFUND_DELAY_MS;

  constructor(
    private readonly store: ShopStore,
    private readonly idempotency: IdempotencyStore,
    private readonly events: EventLog<AgentEvent>,
    /** Tests hold a run here to see a second request arrive while the first is running. */
    private readonly executionGate: () => Promise<void> = () => Promise.resolve(),
  ) {}

  reset(): void {
    for (const t of this.timers.values()) if (t) clearTimeout(t);
    this.timers.clear();
    this.records.clear();
    this.refundDelayMs = DEFAULT_REFUND_DELAY_MS;
  }

  setRefundDelay(ms: number | null): void {
    this.refundDelayMs = ms;
  }

  /** Settles every pending refund now; answers how many. */
  settleAll(): number {
    const ids = [...this.timers.keys()];
    for (const id of ids) this.settle(id);
    return ids.length;
  }

  pending(): string[] {
    return [...this.timers.keys()];
  }

  /** The current result of an action this token's holder ran. */
  status(actionId: string, token: TokenRecord): SiteActionResult {
    const record = this.records.get(actionId);
    // The agent that made it, through this token or a later one (the person reconnected); nobody else learns the id exists.
    if (!record || (record.token_id !== token.token_id && record.key_thumbprint !== token.key_thumbprint)) throw new SiteRefusal('TOOL_NOT_FOUND', `No action ${actionId} of this agent.`);
    return SiteActionResult.parse(record.result);
  }

  resourceState(order: Order): SiteResourceState {
    const state = contractStateOf(order);
    const totals = orderTotals(order);
    return SiteResourceState.parse({
      resource: { type: ORDER_TYPE, id: order.id },
      state,
      state_version: order.state_version,
      title: `Order ${order.id}`,
      facts: {
        status_label: state === 'cancellation_pending' ? 'Cancellation pending (refund in progress)' : STATUS_LABELS[order.status],
        placed_at: order.placed_at,
        item_count: order.items.reduce((n, i) => n + i.quantity, 0),
        currency: totals.currency,
        total_cents: totals.total_cents,
        shipping_address: order.shipping_address ?? null,
        carrier: order.shipment?.carrier ?? null,
        tracking_number: order.shipment?.tracking_number ?? null,
        return_requested: order.return_requested_at !== undefined,
      },
      available_actions: availableIn(state),
      updated_at: order.updated_at,
    });
  }

  /** Reading an order: `orders:read` on a resource in the token's resource scope. */
  readOrder(token: TokenRecord, type: string, id: string): Order {
    if (type !== ORDER_TYPE) throw new SiteRefusal('TOOL_NOT_FOUND', `This shop has no resource type ${type.slice(0, 64)}.`);
    if (!tokenCovers(token, READ_SCOPE, { type, id })) throw new SiteRefusal('SCOPE_DENIED', `The token does not allow reading ${type}:${id.slice(0, 64)}.`);
    return this.order(id);
  }

  async execute(req: ExecuteRequest): Promise<StoredResponse> {
    const body = parseJsonBody(req.raw, ExecuteBody, 'execute');
    const action = actionNamed(body.action);
    if (!action) throw new SiteRefusal('TOOL_NOT_FOUND', `This shop has no action ${body.action}.`);
    if (body.resource.type !== action.resource_type)
      throw new SiteRefusal('INVALID_INPUT', `${action.name} acts on ${action.resource_type}, not ${body.resource.type}.`, {
        issues: [{ path: 'resource.type', message: `must be ${action.resource_type}` }],
      });
    const input = INPUTS[action.name]?.safeParse(body.input);
    if (!input?.success) throw new SiteRefusal('INVALID_INPUT', `The input of ${action.name} is invalid.`, { issues: input ? issuesOf(input.error, 'input') : [] });
    this.checkScope(req.token, action, body.resource);
    this.order(body.resource.id);
    if (action.requires_approval) await this.checkApproval(action, body);
    const key = IdempotencyKey.safeParse(req.idempotencyKey);
    if (!key.success) throw new SiteRefusal('INVALID_INPUT', 'Send an Idempotency-Key header (1–255 printable characters).', { issues: [{ path: 'Idempotency-Key', message: 'required' }] });
    const ifMatch = parseIfMatch(req.ifMatch);
    // The key binds what is asked (action, resource, input), as DESIGN §3 says; a retry may carry a
    // later approval time or a newer planned version and still gets the first answer.
    const claim = this.idempotency.claim(req.token.key_thumbprint, key.data, await requestHash(action.name, body.resource, body.input));
    if (claim.kind === 'replay') return claim.response;
    if (claim.kind === 'conflict') throw new SiteRefusal('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used for another request (action, resource or input).');
    if (claim.kind === 'running') throw new SiteRefusal('IN_PROGRESS', 'The first request with this Idempotency-Key is still running.');
    try {
      await this.executionGate();
      // A refused precondition changed nothing: it is not stored, so a retry re-evaluates.
      this.checkPreconditions(action, body, ifMatch);
      const response = this.run(action, body, input.data, req.token);
      claim.finish(response);
      return response;
    } catch (err) {
      claim.abandon();
      throw err;
    }
  }

  private order(id: string): Order {
    try {
      return this.store.get(id);
    } catch {
      throw new SiteRefusal('TOOL_NOT_FOUND', `There is no order ${id.slice(0, 64)}.`);
    }
  }

  private checkScope(token: TokenRecord, action: ContractAction, resource: { type: string; id: string }): void {
    const scope = scopeOf(action);
    if (!token.scopes.includes(scope) && !token.scopes.includes(WILDCARD_SCOPE))
      throw new SiteRefusal('SCOPE_DENIED', `${action.name} needs the scope ${scope}.`, { details: { needed_scope: scope } });
    if (!token.resource_scope.some((s) => resourceScopeCovers(s, resource)))
      throw new SiteRefusal('SCOPE_DENIED', `The token does not cover ${resource.type}:${resource.id}.`, { details: { resource_scope: token.resource_scope } });
    if (action.payment && !token.payment) throw new SiteRefusal('SCOPE_DENIED', `${action.name} touches payment; the token was granted without payment.`, { details: { payment: false } });
  }

  private async checkApproval(action: ContractAction, body: ExecuteBody): Promise<void> {
    if (!body.approval) throw new SiteRefusal('APPROVAL_REQUIRED', `${action.name} needs the person's approval receipt.`);
    const expected = await requestHash(action.name, body.resource, body.input);
    if (body.approval.input_hash !== expected) throw new SiteRefusal('APPROVAL_REQUIRED', 'The approval receipt is for another call (its input_hash does not match).');
  }

  private checkPreconditions(action: ContractAction, body: ExecuteBody, ifMatch: number | undefined): void {
    const order = this.order(body.resource.id);
    const state = contractStateOf(order);
    const wanted = body.preconditions?.state_version ?? ifMatch;
    const expected = { ...(body.preconditions?.expected_state ? { state: body.preconditions.expected_state } : {}), ...(wanted !== undefined ? { state_version: wanted } : {}) };
    const refuse = (message: string): SiteRefusal =>
      new SiteRefusal('PRECONDITION_FAILED', message, {
        ...(Object.keys(expected).length > 0 ? { expected } : {}),
        current: { state, state_version: order.state_version },
        available_actions: availableIn(state),
      });
    if (ifMatch !== undefined && body.preconditions?.state_version !== undefined && ifMatch !== body.preconditions.state_version) throw refuse('If-Match and preconditions.state_version disagree.');
    if (wanted !== undefined && wanted !== order.state_version) throw refuse(`Order ${order.id} is at state_version ${order.state_version}, not ${wanted}.`);
    if (body.preconditions?.expected_state !== undefined && body.preconditions.expected_state !== state) throw refuse(`Order ${order.id} is ${state}, not ${body.preconditions.expected_state}.`);
    if (!action.allowed_in_states.includes(state)) throw refuse(`${action.name} is not possible while order ${order.id} is ${state}.`);
  }

  private run(action: ContractAction, body: ExecuteBody, input: Record<string, unknown>, token: TokenRecord): StoredResponse {
    const id = body.resource.id;
    const actionId = `act_${crypto.randomUUID()}`;
    let order: Order;
    try {
      if (action.name === 'orders.cancel' && this.store.get(id).status === 'paid') return this.accept(actionId, id, input, token);
      order = this.perform(action.name, id, input);
    } catch (err) {
      // The store's own refusal (a race with another path): the precondition no longer holds.
      if (err instanceof HttpError && err.status === 409) {
        const now = this.order(id);
        throw new SiteRefusal('PRECONDITION_FAILED', err.message, { current: { state: contractStateOf(now), state_version: now.state_version }, available_actions: availableIn(contractStateOf(now)) });
      }
      throw err;
    }
    const result = SiteActionResult.parse({
      action_id: actionId,
      resource: this.after(order),
      execution: { status: 'confirmed', certainty: 'confirmed', executed_at: new Date().toISOString(), verified_by: 'site_contract' },
      effects: action.changes.map((type) => ({ type, reversible: type === 'return_requested' || type === 'address_changed', resource: { type: ORDER_TYPE, id } })),
      available_actions: availableIn(contractStateOf(order)),
    });
    this.remember(actionId, token, id, result);
    this.events.push({ type: 'action_confirmed', via: 'agent', token_id: token.token_id, action_id: actionId, action: action.name, order_id: id });
    return respond(200, result);
  }

  private perform(name: string, id: string, input: Record<string, unknown>): Order {
    switch (name) {
      case 'orders.cancel':
        return this.store.cancel(id, input.reason as (typeof CANCEL_REASONS)[number], 'agent');
      case 'orders.pay':
        return this.store.pay(id, 'agent');
      case 'orders.request_return':
        return this.store.requestReturn(id, 'agent');
      case 'orders.change_address':
        return this.store.changeAddress(id, String(input.address), 'agent');
      default:
        return this.store.get(id);
    }
  }

  /** A paid order: the cancellation waits for the refund; answered 202 with where to poll. */
  private accept(actionId: string, id: string, input: Record<string, unknown>, token: TokenRecord): StoredResponse {
    const order = this.store.requestCancellation(id, input.reason as (typeof CANCEL_REASONS)[number], actionId, 'agent');
    const statusUrl = `/agent/v1/actions/${actionId}`;
    const result = SiteActionResult.parse({
      action_id: actionId,
      resource: this.after(order),
      execution: { status: 'accepted', certainty: 'pending_confirmation', status_url: statusUrl, accepted_at: new Date().toISOString() },
    });
    this.remember(actionId, token, id, result);
    this.events.push({ type: 'action_accepted', via: 'agent', token_id: token.token_id, action_id: actionId, action: 'orders.cancel', order_id: id });
    const timer = this.refundDelayMs === null ? null : setTimeout(() => this.settle(actionId), this.refundDelayMs);
    timer?.unref();
    this.timers.set(actionId, timer);
    return respond(202, result, { location: statusUrl });
  }

  private settle(actionId: string): void {
    const timer = this.timers.get(actionId);
    if (timer) clearTimeout(timer);
    this.timers.delete(actionId);
    const record = this.records.get(actionId);
    if (!record) return;
    const order = this.store.completeCancellation(record.order_id, actionId, 'agent');
    const now = new Date().toISOString();
    if (order) {
      record.result = SiteActionResult.parse({
        action_id: actionId,
        resource: this.after(order),
        execution: { status: 'confirmed', certainty: 'confirmed', executed_at: now, verified_by: 'site_contract' },
        effects: [{ type: 'order_cancelled', reversible: false, resource: { type: ORDER_TYPE, id: order.id } }],
        available_actions: availableIn(contractStateOf(order)),
      });
      this.events.push({ type: 'action_confirmed', via: 'agent', token_id: record.token_id, action_id: actionId, action: 'orders.cancel', order_id: order.id });
      return;
    }
    const current = this.order(record.order_id);
    record.result = SiteActionResult.parse({
      action_id: actionId,
      resource: this.after(current),
      execution: {
        status: 'failed',
        certainty: 'confirmed',
        executed_at: now,
        error: { code: 'EXECUTION_FAILED', message: `The refund for order ${current.id} did not settle: the order changed meanwhile.`, retryable: false },
      },
    });
    this.events.push({ type: 'action_failed', via: 'agent', token_id: record.token_id, action_id: actionId, action: 'orders.cancel', order_id: current.id });
  }

  private after(order: Order): { type: string; id: string; state: string; state_version: number } {
    return { type: ORDER_TYPE, id: order.id, state: contractStateOf(order), state_version: order.state_version };
  }

  private remember(actionId: string, token: TokenRecord, orderId: string, result: SiteActionResult): void {
    if (this.records.size >= MAX_ACTION_RECORDS) this.records.delete(this.records.keys().next().value as string);
    this.records.set(actionId, { token_id: token.token_id, key_thumbprint: token.key_thumbprint, order_id: orderId, result });
  }
}
