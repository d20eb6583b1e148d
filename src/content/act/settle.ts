import type { ActSettle } from '../../protocol/messages.ts';

/**
 * After an act, the page's own events say when it is done reacting — no fixed wait: no DOM
 * mutation for a moment, none of the requests the act set off still in flight, no finite
 * animation or transition running. Capped, so a page that mutates forever (a ticker, a spinner
 * that never stops) cannot hold the act: the report says it was capped and what was still busy.
 * A navigation leaving the document ends the wait at once (the next page is the worker's to wait for).
 */

export const SETTLE = { quietMs: 50, capMs: 1_500, tickMs: 25 } as const;

export interface SettleProbe {
  now: number;
  /** When the act began: the cap counts from here. */
  start: number;
  lastMutation: number;
  requestsInFlight: number;
  animating: boolean;
  leaving: boolean;
}

/** Pure: settled (how), or still waiting. */
export function settleVerdict(p: SettleProbe, options: { quietMs: number; capMs: number } = SETTLE): ActSettle | 'wait' {
  const ms = Math.max(0, Math.round(p.now - p.start));
  if (p.leaving) return { ms, how: 'navigating' };
  const mutating = p.now - p.lastMutation < options.quietMs;
  if (!mutating && p.requestsInFlight === 0 && !p.animating) return { ms, how: 'quiet' };
  if (p.now - p.start < options.capMs) return 'wait';
  const busy: NonNullable<ActSettle['busy']> = [];
  if (mutating) busy.push('mutations');
  if (p.requestsInFlight > 0) busy.push('requests');
  if (p.animating) busy.push('animations');
  return { ms, how: 'capped', busy };
}

/** A running animation or transition that will end (an infinite spinner never does: not waited for). */
function animating(doc: Document): boolean {
  const all = typeof doc.getAnimations === 'function' ? doc.getAnimations() : [];
  for (const a of all) {
    if (a.playState !== 'running') continue;
    const end = a.effect?.getComputedTiming().endTime;
    if (typeof end === 'number' && Number.isFinite(end)) return true;
  }
  return false;
}

export interface SettleSources {
  doc: Document;
  /** Requests started since the act began that have not ended. */
  inFlight(): number;
  /** A navigation is taking this document away. */
  leaving(): boolean;
  clock?: () => number;
}

/** Watches the page from `start` (the act's beginning) until it settles or the cap passes. */
export function settlePage(sources: SettleSources, start: number, options: { quietMs: number; capMs: number; tickMs: number } = SETTLE): Promise<ActSettle> {
  const clock = sources.clock ?? (() => performance.now());
  // Mutations during the act count: the quiet period starts at the last one.
  let lastMutation = clock();
  const observer = new MutationObserver(() => (lastMutation = clock()));
  const root = sources.doc.documentElement;
  if (root) observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  return new Promise((resolve) => {
    const check = () => {
      if (observer.takeRecords().length > 0) lastMutation = clock();
      const verdict = settleVerdict({ now: clock(), start, lastMutation, requestsInFlight: sources.inFlight(), animating: animating(sources.doc), leaving: sources.leaving() }, options);
      if (verdict === 'wait') return void setTimeout(check, options.tickMs);
      observer.disconnect();
      resolve(verdict);
    };
    setTimeout(check, options.tickMs);
  });
}
