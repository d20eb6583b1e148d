import { ApprovalDecision, ApprovalRequest, ApprovalReceipt, type ApprovalReason, type BoundForm, type CardWithdrawal } from '../protocol/approval.ts';
import type { ActionRequest } from '../protocol/action.ts';
import type { ObservedState } from '../protocol/observed-state.ts';
import type { Phrase } from '../protocol/phrase.ts';
import { resourceScopeOf } from '../protocol/resource.ts';
import type { StoredApproval, StoredReceipt } from '../storage/approval-records.ts';
import type { ApprovalStore } from '../storage/approval-store.ts';
import { iso, systemClock, type Clock } from '../base/clock.ts';
import { newId } from '../base/ids.ts';
import type { ApprovalNotifier } from './ports.ts';
import { windowRefusal, windowRefusalPhrase, type BindingCheck, type ReceiptBinding } from '../storage/receipt-binding.ts';

export interface ApprovalSettings {
  /** How long a card waits for a decision. */
  request_ttl_ms: number;
  /** How long an exact receipt stays usable after approval. */
  receipt_ttl_ms: number;
  /** Longest "approve for this resource for N minutes" window. */
  max_window_ms: number;
}

const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  request_ttl_ms: 5 * 60_000,
  receipt_ttl_ms: 5 * 60_000,
  max_window_ms: 60 * 60_000,
};

export interface CardFacts {
  action_id: string;
  agent_id: string;
  /** The agent in the person's words (its token's label, the co-pilot's name). */
  agent_name?: string;
  token_id: string;
  origin: string;
  request: ActionRequest;
  /** A DOM action's element, described as observed, and as a phrase for the panel. */
  target?: string;
  target_said?: Phrase;
  via: ApprovalRequest['via'];
  input_hash: string;
  observed: ObservedState;
  reasons: ApprovalReason[];
  /** The agent's session: while the card waits, its other actions may not change `form`. */
  session_id?: string;
  /** A click in a form: the values it would send (form-binding.ts). */
  form?: BoundForm;
  /** What the input acts on, or that nothing names it (acts-on.ts). */
  acts_on?: ApprovalRequest['acts_on'];
  /** A form that sends its values to another origin. */
  sends_to?: string;
  /** The agent's step that made the page ask, when this one answers it. */
  prior_step?: ApprovalRequest['prior_step'];
}

export type ApprovalOutcome = { kind: 'approved'; receipt: ApprovalReceipt } | { kind: 'denied'; reason?: string; withdrawn?: CardWithdrawal } | { kind: 'expired' };

export type DecideResult =
  | { ok: true; status: 'approved'; receipt: ApprovalReceipt }
  | { ok: true; status: 'denied' }
  | { ok: false; problem: 'unknown_request' | 'already_decided' | 'expired' | 'stale_card' | 'window_not_allowed' | 'invalid_decision'; message: string };

/** A pending card that holds a form: the session's other actions may not change it meanwhile. */
export interface FormHold {
  request_id: string;
  action: string;
  form_ref: string;
}

export interface DecideOptions {
  /** "Approve for this resource for N minutes": a window receipt instead of a single-use one. */
  window_ms?: number;
}

/**
 * The approval queue (DESIGN §4, §8). Cards are built here from the actual action (never from an
 * agent's summary), persisted, and announced to the side panel; `decide` is what the service
 * worker calls for a side-panel message, and nothing else can reach it. Waiting callers are
 * resolved in memory; after a restart `outcome()` reads the decision back from the store.
 */
export class ApprovalQueue {
  private readonly waiters = new Map<string, Set<(o: ApprovalOutcome) => void>>();
  readonly settings: ApprovalSettings;

  constructor(
    private readonly store: ApprovalStore,
    private readonly clock: Clock = systemClock,
    private readonly notifier?: ApprovalNotifier,
    settings: Partial<ApprovalSettings> = {},
  ) {
    this.settings = { ...DEFAULT_APPROVAL_SETTINGS, ...settings };
  }

  async enqueue(facts: CardFacts): Promise<ApprovalRequest> {
    const now = this.clock();
    const o = facts.observed;
    const codes = facts.reasons.map((r) => r.code);
    const noWindow = windowRefusal(facts.request.action, facts.via, codes);
    const noWindowSaid = windowRefusalPhrase(facts.request.action, facts.via, codes);
    const request = ApprovalRequest.parse({
      request_id: newId('apreq_'),
      agent_id: facts.agent_id,
      ...(facts.agent_name ? { agent_name: facts.agent_name } : {}),
      token_id: facts.token_id,
      origin: facts.origin,
      action: facts.request.action,
      via: facts.via,
      ...(facts.target ? { target: facts.target } : {}),
      ...(facts.target_said ? { target_said: facts.target_said } : {}),
      resource: facts.request.resource,
      ...(o.resource_identity ? { resource_identity: o.resource_identity } : {}),
      input: facts.request.input,
      input_hash: facts.input_hash,
      idempotency_key: facts.request.idempotency_key,
      state: {
        state: o.state,
        state_version: o.state_version,
        source: o.source,
        evidence: o.evidence,
        confidence: o.confidence,
        conflicts: o.conflicts,
        observed_at: o.observed_at,
      },
      reasons: facts.reasons,
      ...(facts.request.rationale ? { rationale: facts.request.rationale } : {}),
      ...(facts.form ? { form: facts.form } : {}),
      ...(facts.acts_on ? { acts_on: facts.acts_on } : {}),
      ...(facts.sends_to ? { sends_to: facts.sends_to } : {}),
      ...(facts.prior_step ? { prior_step: facts.prior_step } : {}),
      window: noWindow ? { offered: false, why_not: noWindow, ...(noWindowSaid ? { why_not_said: noWindowSaid } : {}) } : { offered: true },
      requested_at: iso(now),
      expires_at: iso(now + this.settings.request_ttl_ms),
    });
    await this.store.putRequest({ request, action_id: facts.action_id, status: 'pending', ...(facts.session_id ? { session_id: facts.session_id } : {}) });
    this.notifier?.queued(request);
    return request;
  }

  /** Cards waiting for the side panel, oldest first; expired ones are settled on the way. */
  async pending(): Promise<ApprovalRequest[]> {
    const now = this.clock();
    const out: ApprovalRequest[] = [];
    for (const s of await this.store.pending()) {
      if (Date.parse(s.request.expires_at) <= now) await this.expire(s.request.request_id);
      else out.push(s.request);
    }
    return out.sort((a, b) => Date.parse(a.requested_at) - Date.parse(b.requested_at));
  }

  async decide(decision: ApprovalDecision, options: DecideOptions = {}): Promise<DecideResult> {
    const parsed = ApprovalDecision.safeParse(decision);
    if (!parsed.success) return { ok: false, problem: 'invalid_decision', message: parsed.error.issues[0]?.message ?? 'invalid decision' };
    const d = parsed.data;
    const now = this.clock();
    const stored = await this.store.request(d.request_id);
    if (!stored) return { ok: false, problem: 'unknown_request', message: `no approval request ${d.request_id}` };
    if (stored.status !== 'pending') return { ok: false, problem: 'already_decided', message: `approval request ${d.request_id} is already ${stored.status}` };
    const req = stored.request;
    if (Date.parse(req.expires_at) <= now) {
      await this.expire(req.request_id);
      return { ok: false, problem: 'expired', message: `approval request ${d.request_id} expired at ${req.expires_at}` };
    }
    if (d.decision === 'deny') {
      const why = { ...(d.reason ? { reason: d.reason } : {}), ...(d.withdrawn ? { withdrawn: d.withdrawn } : {}) };
      const settled = await this.store.settle(req.request_id, { status: 'denied', decided_at: now, decided_by: d.decided_by, ...why });
      if (settled?.status !== 'denied') return { ok: false, problem: 'already_decided', message: `approval request ${d.request_id} is already ${settled?.status}` };
      this.finish(req.request_id, { kind: 'denied', ...why }, 'denied');
      return { ok: true, status: 'denied' };
    }
    // The card the person saw must be the card we have: same input, same state.
    if (d.input_hash !== req.input_hash || d.state_version !== req.state.state_version) {
      return { ok: false, problem: 'stale_card', message: 'the decision was made on a card whose input or state no longer matches this request' };
    }
    const window = options.window_ms;
    if (window !== undefined) {
      // Judged again here: a card from an older version carries no offer, and none is assumed.
      const refused =
        req.window?.offered !== true
          ? (req.window?.why_not ?? 'the card offered no window')
          : windowRefusal(
              req.action,
              req.via,
              req.reasons.map((r) => r.code),
            );
      if (refused) return { ok: false, problem: 'window_not_allowed', message: `this action cannot be approved for a period: ${refused}` };
      if (!(window > 0 && window <= this.settings.max_window_ms)) {
        return { ok: false, problem: 'window_not_allowed', message: `the window must be between 1 ms and ${this.settings.max_window_ms} ms` };
      }
    }
    const receipt = ApprovalReceipt.parse({
      receipt_id: newId('approval_'),
      request_id: req.request_id,
      action: req.action,
      resource: req.resource,
      input_hash: req.input_hash,
      ...(req.form ? { form_hash: req.form.hash } : {}),
      state_version: req.state.state_version,
      agent_id: req.agent_id,
      token_id: req.token_id,
      approved_by: d.decided_by,
      scope: resourceScopeOf(req.resource),
      origin: req.origin,
      issued_at: iso(now),
      expires_at: iso(now + (window ?? this.settings.receipt_ttl_ms)),
    });
    const storedReceipt: StoredReceipt = { receipt, mode: window !== undefined ? 'resource_window' : 'exact', used_by: [] };
    const settled = await this.store.settle(req.request_id, { status: 'approved', decided_at: now, decided_by: d.decided_by, receipt_id: receipt.receipt_id }, storedReceipt);
    if (settled?.status !== 'approved' || settled.receipt_id !== receipt.receipt_id) {
      return { ok: false, problem: 'already_decided', message: `approval request ${d.request_id} is already ${settled?.status}` };
    }
    this.finish(req.request_id, { kind: 'approved', receipt }, 'approved');
    return { ok: true, status: 'approved', receipt };
  }

  /** The decision as stored (after a restart there is no in-memory waiter to tell us). */
  async outcome(requestId: string): Promise<ApprovalOutcome | 'pending' | undefined> {
    const stored = await this.store.request(requestId);
    if (!stored) return undefined;
    return this.toOutcome(stored);
  }

  private async toOutcome(stored: StoredApproval): Promise<ApprovalOutcome | 'pending'> {
    switch (stored.status) {
      case 'pending':
        if (Date.parse(stored.request.expires_at) <= this.clock()) return (await this.expire(stored.request.request_id)) ?? { kind: 'expired' };
        return 'pending';
      case 'denied':
        return { kind: 'denied', ...(stored.reason ? { reason: stored.reason } : {}), ...(stored.withdrawn ? { withdrawn: stored.withdrawn } : {}) };
      case 'expired':
        return { kind: 'expired' };
      case 'approved': {
        const r = stored.receipt_id ? await this.store.receipt(stored.receipt_id) : undefined;
        return r ? { kind: 'approved', receipt: r.receipt } : { kind: 'expired' };
      }
    }
  }

  /**
   * Resolves when the request is decided or expires. The expiry timer is real time; the
   * decision itself comes from decide() (or is already in the store).
   */
  async wait(requestId: string, signal?: AbortSignal): Promise<ApprovalOutcome> {
    const stored = await this.store.request(requestId);
    if (!stored) return { kind: 'expired' };
    const now = await this.toOutcome(stored);
    if (now !== 'pending') return now;
    return new Promise<ApprovalOutcome>((resolve) => {
      const set = this.waiters.get(requestId) ?? new Set();
      const done = (o: ApprovalOutcome) => {
        clearTimeout(timer);
        set.delete(done);
        resolve(o);
      };
      set.add(done);
      this.waiters.set(requestId, set);
      const ms = Math.max(0, Date.parse(stored.request.expires_at) - this.clock());
      // Real time has passed when this fires, whatever the injected clock says: force the expiry.
      const timer = setTimeout(() => void this.expire(requestId, true).then((o) => o && done(o)), Math.min(ms, 2 ** 31 - 1));
      (timer as { unref?: () => void }).unref?.();
      signal?.addEventListener('abort', () => done({ kind: 'expired' }), { once: true });
    });
  }

  /** Settles a pending request whose time is up as expired; returns the resulting outcome. */
  async expire(requestId: string, force = false): Promise<ApprovalOutcome | undefined> {
    if (!force) {
      const stored = await this.store.request(requestId);
      if (!stored || (stored.status === 'pending' && Date.parse(stored.request.expires_at) > this.clock())) return undefined;
    }
    const settled = await this.store.settle(requestId, { status: 'expired', decided_at: this.clock() });
    if (!settled) return undefined;
    const outcome = await this.toOutcome(settled);
    if (outcome === 'pending') return undefined;
    if (settled.status === 'expired') this.finish(requestId, outcome, 'expired');
    return outcome;
  }

  /**
   * The pending card of this session, if any, whose form holds `ref` (a field, or the control the
   * card would click): an action on it now would change what the person is looking at.
   */
  async formHold(sessionId: string | undefined, ref: string, exceptActionId?: string): Promise<FormHold | undefined> {
    if (!sessionId) return undefined;
    for (const s of await this.store.pending()) {
      const form = s.request.form;
      if (s.session_id !== sessionId || !form || s.action_id === exceptActionId) continue;
      if (Date.parse(s.request.expires_at) <= this.clock()) continue;
      if (form.ref === ref || s.request.input.ref === ref || form.fields.some((f) => f.ref === ref)) return { request_id: s.request.request_id, action: s.request.action, form_ref: form.ref };
    }
    return undefined;
  }

  /** Checks a receipt against one dispatch and records its use (atomic). */
  consume(receiptId: string, binding: ReceiptBinding): Promise<BindingCheck> {
    return this.store.consume(receiptId, binding, this.clock());
  }

  forAction(actionId: string): Promise<StoredApproval[]> {
    return this.store.forAction(actionId);
  }

  private finish(requestId: string, outcome: ApprovalOutcome, status: 'approved' | 'denied' | 'expired'): void {
    for (const w of [...(this.waiters.get(requestId) ?? [])]) w(outcome);
    this.waiters.delete(requestId);
    this.notifier?.settled(requestId, status);
  }
}
