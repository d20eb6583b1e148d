import type { z } from 'zod';
import type { QueryResponse, SnapshotQuerySchema } from '../../protocol/messages.ts';
import type { Data, PayloadInput, Reply } from '../../protocol/channel.ts';
import type { ContentRequests } from '../../protocol/content-channel.ts';
import type { PageSnapshot, SnapshotElement } from '../../protocol/snapshot.ts';
import { applyDelta } from './delta.ts';
import { decodeObserveReply } from './decode-reply.ts';
import { snapshotDigest } from '../../observation/snapshot-digest.ts';
import type { SendToFrame } from '../core/messenger.ts';
import { DeadlineExceeded } from '../../base/deadline.ts';

/**
 * The service worker's door to a tab's page observation. It asks the top frame's content script:
 * that script captures the whole document, including open and closed shadow roots and
 * same-origin iframes (walked in-document, so they arrive merged); cross-origin iframes are
 * listed as blind spots. Replies come from a page's renderer process, so they are validated like
 * any other untrusted input before anyone sees them.
 *
 * Snapshots travel as JSON text, their long lists packed (see ObserveReplyText). After the first
 * snapshot of a tab, the page sends only what changed (a delta against the snapshot kept here, per
 * tab); a delta that does not fit is discarded and a full snapshot asked for. Returned snapshots are shared with that cache: treat them as read-only.
 */

export type { SendToFrame };
type ObservationError = { code: string; message: string; retryable: boolean };
export type ObservationResult<T> = { ok: true; data: T } | { ok: false; error: ObservationError };
type SnapshotQuery = z.infer<typeof SnapshotQuerySchema>;

const TOP_FRAME = 0;
/** Tabs whose last snapshot is kept for deltas. */
const CACHED_TABS = 16;
/** Every this many deltas (and with every full observation) the page also sends its digest. */
const VERIFY_EVERY = 10;

interface Cached {
  seq: number;
  snapshot: PageSnapshot;
  byRef: Map<string, SnapshotElement>;
  /** Deltas merged since the copy was last checked against the page's digest. */
  unverified: number;
}

const fail = (code: string, message: string, retryable: boolean): { ok: false; error: ObservationError } => ({ ok: false, error: { code, message, retryable } });

export interface ObservationService {
  /** A fresh PageSnapshot of the tab (incremental in the page unless `full`). */
  observeTab(tabId: number, options?: { full?: boolean }): Promise<ObservationResult<PageSnapshot>>;
  /** Elements of the tab's live page by refs, role, name or text (expand-by-ref). */
  queryTab(tabId: number, query: SnapshotQuery, documentToken?: string): Promise<ObservationResult<QueryResponse>>;
}

/** One request to the tab's top frame; a page that stalls or cannot be reached is a refusal like any other. */
async function ask<K extends 'content/observe' | 'content/query'>(
  send: SendToFrame,
  tabId: number,
  type: K,
  payload: PayloadInput<ContentRequests, K>,
): Promise<ObservationResult<Data<ContentRequests, K>>> {
  let reply: Reply<Data<ContentRequests, K>>;
  try {
    reply = await send(tabId, TOP_FRAME, type, payload);
  } catch (error) {
    // A page that stalls is not retried: it already had its whole deadline.
    if (error instanceof DeadlineExceeded) return fail('TIMEOUT', `The page in tab ${tabId} did not answer within ${error.ms} ms.`, false);
    // No content script there (a chrome:// page, a tab loaded before Steward, a navigation in flight).
    return fail('NO_CONTENT_SCRIPT', `Steward cannot reach the page in tab ${tabId}: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  if (!reply.ok && reply.error.code === 'INVALID_REPLY') return fail('INVALID_REPLY', `The page's answer does not fit the schema: ${reply.error.message.slice(0, 500)}`, false);
  return reply;
}

/** Elements by ref (a plain loop: no pair array per element, on thousands of them). */
function refIndex(elements: readonly SnapshotElement[]): Map<string, SnapshotElement> {
  const byRef = new Map<string, SnapshotElement>();
  for (let i = 0; i < elements.length; i++) byRef.set(elements[i]!.ref, elements[i]!);
  return byRef;
}

export function createObservationService(send: SendToFrame): ObservationService {
  const cache = new Map<number, Cached>();

  const remember = (tabId: number, seq: number, snapshot: PageSnapshot, unverified: number): PageSnapshot => {
    const held = cache.get(tabId);
    const byRef = held?.snapshot.elements === snapshot.elements ? held.byRef : refIndex(snapshot.elements);
    cache.delete(tabId);
    cache.set(tabId, { seq, snapshot, byRef, unverified });
    while (cache.size > CACHED_TABS) cache.delete(cache.keys().next().value!);
    return snapshot;
  };

  async function observeTab(tabId: number, options: { full?: boolean } = {}, retried = false): Promise<ObservationResult<PageSnapshot>> {
    // Even a full capture may travel as a delta against what is held here: the page re-walks
    // everything, then sends only the elements that differ.
    const base = cache.get(tabId);
    const since = base?.snapshot.documentToken ? { documentToken: base.snapshot.documentToken, seq: base.seq } : undefined;
    const verify = since !== undefined && (options.full === true || base!.unverified + 1 >= VERIFY_EVERY);
    const reply = await ask(send, tabId, 'content/observe', { ...(options.full ? { full: true } : {}), ...(since ? { since } : {}), ...(verify ? { verify: true } : {}) });
    if (!reply.ok) {
      cache.delete(tabId);
      return reply;
    }
    const decoded = decodeObserveReply(reply.data);
    if (!decoded.ok) {
      cache.delete(tabId);
      return decoded;
    }
    const data = decoded.data;
    if (data.kind === 'full') return { ok: true, data: remember(tabId, data.seq, data.snapshot, 0) };
    const rebuilt = base && base.seq === data.baseSeq ? applyDelta(base.snapshot, base.byRef, data.delta) : undefined;
    // When the page also says what it holds, what was rebuilt must be that (see snapshot-digest.ts).
    const merged = rebuilt && (data.digest === undefined || snapshotDigest(rebuilt) === data.digest) ? rebuilt : undefined;
    if (merged) return { ok: true, data: remember(tabId, data.seq, merged, data.digest === undefined ? base!.unverified + 1 : 0) };
    // The delta does not fit what we hold: forget it and ask for everything once.
    cache.delete(tabId);
    if (retried) return fail('INVALID_REPLY', 'The page sent a snapshot delta that does not fit the previous snapshot.', true);
    return observeTab(tabId, {}, true);
  }

  return {
    observeTab: (tabId, options) => observeTab(tabId, options),
    queryTab: (tabId, query, documentToken) => ask(send, tabId, 'content/query', { query, ...(documentToken ? { documentToken } : {}) }),
  };
}
