import { JournalEntry, canTransition, isTerminal, type JournalState } from '../protocol/journal.ts';
import type { ActionResult } from '../protocol/results.ts';
import type { ErrorCode } from '../protocol/errors.ts';
import type { StateVersion } from '../protocol/resource.ts';
import { iso, systemClock, type Clock } from '../base/clock.ts';
import { StoredAction } from './action-record.ts';
import type { StewardDb } from './db.ts';
import { claimKey, type BeginOutcome, type BeginRequest } from './idempotency-store.ts';
import { readValid } from './read.ts';

class JournalTransitionError extends Error {
  constructor(
    readonly action_id: string,
    readonly from: JournalState | undefined,
    readonly to: JournalState,
  ) {
    super(`Journal: action ${action_id} cannot go from ${from ?? '(none)'} to ${to}`);
    this.name = 'JournalTransitionError';
  }
}

export type NewAction = Omit<StoredAction, 'state' | 'seq' | 'open' | 'created_at' | 'updated_at'>;

/** A claimed key comes with its journaled action; any other outcome journaled nothing. */
export type ClaimOutcome = Exclude<BeginOutcome, { kind: 'started' }> | { kind: 'started'; action: StoredAction };

export interface TransitionExtras {
  receipt_id?: string;
  state_version?: StateVersion;
  result?: ActionResult;
  error_code?: ErrorCode;
  note?: string;
  via?: StoredAction['via'];
  state_version_before?: StateVersion;
  declared_effect?: StoredAction['declared_effect'];
}

/**
 * The durable journal (DESIGN §8). Each transition is checked against the allowed graph and
 * written together with the action's head in one transaction, and the caller performs the step
 * only after the write resolved: what the journal says is never behind what happened. Because
 * the check reads the head inside the same transaction, two racing writers cannot both move an
 * action out of the same state (e.g. both dispatch it).
 */
export class JournalStore {
  constructor(
    private readonly db: StewardDb,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Journals a new action as `proposed`; returns its head record. */
  async begin(action: NewAction, note?: string): Promise<StoredAction> {
    const { head, entry } = this.proposal(action, note);
    const tx = this.db.transaction(['journal_actions', 'journal'], 'readwrite');
    await Promise.all([tx.objectStore('journal_actions').add(head), tx.objectStore('journal').add(entry), tx.done]);
    return head;
  }

  /**
   * Claims the idempotency key and journals the action as `proposed` in one transaction: a
   * service-worker kill can never leave a key claimed by an action the journal does not know
   * (every retry would get IN_PROGRESS, and recovery would never look at it).
   */
  async beginClaimed(claim: BeginRequest, action: NewAction, note?: string): Promise<ClaimOutcome> {
    const { head, entry } = this.proposal(action, note);
    const tx = this.db.transaction(['idempotency', 'journal_actions', 'journal'], 'readwrite');
    const outcome = await claimKey(tx.objectStore('idempotency'), claim, head.created_at);
    if (outcome.kind !== 'started') {
      await tx.done;
      return outcome;
    }
    await Promise.all([tx.objectStore('journal_actions').add(head), tx.objectStore('journal').add(entry), tx.done]);
    return { kind: 'started', action: head };
  }

  private proposal(action: NewAction, note?: string): { head: StoredAction; entry: JournalEntry } {
    const now = this.clock();
    const head: StoredAction = { ...action, state: 'proposed', seq: 0, open: 1, created_at: now, updated_at: now };
    return { head, entry: JournalEntry.parse(this.entryFor(head, undefined, 'proposed', 0, now, { note })) };
  }

  async transition(actionId: string, to: JournalState, extras: TransitionExtras = {}): Promise<JournalEntry> {
    const now = this.clock();
    const tx = this.db.transaction(['journal_actions', 'journal'], 'readwrite');
    const raw = await tx.objectStore('journal_actions').get(actionId);
    const head = raw === undefined ? undefined : readValid(StoredAction, raw, 'journal_actions', actionId);
    if (!head || !canTransition(head.state, to)) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new JournalTransitionError(actionId, head?.state, to);
    }
    const seq = head.seq + 1;
    const entry = JournalEntry.parse(this.entryFor(head, head.state, to, seq, now, extras));
    const next: StoredAction = {
      ...head,
      state: to,
      seq,
      open: isTerminal(to) ? 0 : 1,
      updated_at: now,
      ...(extras.receipt_id ? { receipt_id: extras.receipt_id } : {}),
      ...(extras.via ? { via: extras.via } : {}),
      ...(extras.state_version_before !== undefined ? { state_version_before: extras.state_version_before } : {}),
      ...(extras.declared_effect ? { declared_effect: extras.declared_effect } : {}),
    };
    await Promise.all([tx.objectStore('journal_actions').put(next), tx.objectStore('journal').add(entry), tx.done]);
    return entry;
  }

  /**
   * Records the site an action's resource was found on, when its request named none: from then
   * on (approval, dispatch, recovery after a restart) it is that site's resource and no other's.
   * A request already bound to another site is never moved (throws).
   */
  async pinOrigin(actionId: string, origin: string): Promise<StoredAction> {
    const tx = this.db.transaction('journal_actions', 'readwrite');
    const raw = await tx.store.get(actionId);
    const head = raw === undefined ? undefined : readValid(StoredAction, raw, 'journal_actions', actionId);
    const bound = head?.request.resource.origin;
    if (!head || (bound !== undefined && bound !== origin)) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new Error(`Journal: action ${actionId} ${head ? `is bound to ${bound}, not ${origin}` : 'is unknown'}`);
    }
    if (bound === origin) {
      await tx.done;
      return head;
    }
    const next: StoredAction = { ...head, request: { ...head.request, resource: { ...head.request.resource, origin } } };
    await Promise.all([tx.store.put(next), tx.done]);
    return next;
  }

  async action(actionId: string): Promise<StoredAction | undefined> {
    const raw = await this.db.get('journal_actions', actionId);
    return raw === undefined ? undefined : readValid(StoredAction, raw, 'journal_actions', actionId);
  }

  async history(actionId: string): Promise<JournalEntry[]> {
    const raws = await this.db.getAllFromIndex('journal', 'by_action', actionId);
    return raws.map((r) => readValid(JournalEntry, r, 'journal', [actionId, r?.seq])).sort((a, b) => a.seq - b.seq);
  }

  /** Actions a restarted service worker must resume or resolve. */
  async unfinished(): Promise<StoredAction[]> {
    const raws = await this.db.getAllFromIndex('journal_actions', 'by_open', 1);
    return raws.map((r) => readValid(StoredAction, r, 'journal_actions', r?.action_id));
  }

  /** How many actions each token has run (journaled under it), by token id. */
  async actionsPerToken(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const raw of await this.db.getAll('journal_actions')) {
      const action = readValid(StoredAction, raw, 'journal_actions', raw?.action_id);
      counts.set(action.token_id, (counts.get(action.token_id) ?? 0) + 1);
    }
    return counts;
  }

  private entryFor(head: StoredAction, from: JournalState | undefined, to: JournalState, seq: number, now: number, extras: TransitionExtras): JournalEntry {
    const receipt = extras.receipt_id ?? head.receipt_id;
    return {
      action_id: head.action_id,
      seq,
      ...(from ? { from } : {}),
      state: to,
      at: iso(now),
      agent_id: head.agent_id,
      token_id: head.token_id,
      idempotency_key: head.idempotency_key,
      action: head.request.action,
      resource: head.request.resource,
      input_hash: head.input_hash,
      ...(extras.state_version !== undefined ? { state_version: extras.state_version } : {}),
      ...(receipt ? { receipt_id: receipt } : {}),
      ...(extras.result ? { result: extras.result } : {}),
      ...(extras.error_code ? { error_code: extras.error_code } : {}),
      ...(extras.note ? { note: extras.note.slice(0, 4096) } : {}),
    };
  }
}
