import type { PageSnapshot } from '../../protocol/snapshot.ts';
import { assembleSnapshot } from './assemble.ts';
import { ChurnDetector } from './churn.ts';
import type { Limits } from './limits.ts';
import { LiveModel } from './model.ts';
import { dom } from './native.ts';
import { StructuredDataReader } from './structured-data.ts';
import { PopupOpeners } from './openers.ts';

/**
 * The page-side observation engine's entry point. Runs wherever there is a DOM: in the isolated
 * content script (with `chrome.dom.openOrClosedShadowRoot` passed in, so closed shadow roots are
 * seen) or in a plain page for tests and benchmarks (without it, closed roots are a blind spot).
 * Never throws: a failure is a machine-readable error, and the next call starts afresh.
 * An element or text that did not change is reported as the same object as in the previous snapshot
 * (that is how deltas are found): treat snapshots as read-only.
 */

export interface PageObserverOptions {
  document?: Document;
  /** Returns open AND closed shadow roots; in the content script: chrome.dom.openOrClosedShadowRoot. */
  closedShadowRootOf?: (el: Element) => ShadowRoot | null;
  limits?: Partial<Limits>;
  now?: () => number;
  /** Started before the first snapshot (the content script starts one at once, so a clock has ticked by then); else made here. */
  churn?: ChurnDetector;
}

type ObserveError = { code: 'DOCUMENT_NOT_READY' | 'OBSERVE_FAILED'; message: string; retryable: boolean };
type ObserveOutcome = { ok: true; snapshot: PageSnapshot } | { ok: false; error: ObserveError };

export interface PageObserver {
  /** A fresh snapshot: incremental after the first, unless `full` is asked for. */
  snapshot(options?: { full?: boolean }): ObserveOutcome;
  /** The live element behind a ref, if it is still in the document. */
  elementFor(ref: string): Element | undefined;
  /** A step acted on this ref: a popup that shows in the next snapshot is tied to it (openers.ts). */
  actedOn(ref: string): void;
  readonly documentToken: string;
  dispose(): void;
}

function randomToken(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

export function createPageObserver(options: PageObserverOptions = {}): PageObserver {
  const doc = options.document ?? document;
  const model = new LiveModel({ document: doc, closedShadowRootOf: options.closedShadowRootOf, limits: options.limits, now: options.now });
  const structuredData = new StructuredDataReader();
  const churn = options.churn ?? new ChurnDetector(doc, { now: options.now });
  const documentToken = randomToken();
  const openers = new PopupOpeners(model.now);
  let broken = false;

  return {
    documentToken,
    snapshot({ full = false } = {}): ObserveOutcome {
      if (!dom.doc.documentElement(doc)) {
        return { ok: false, error: { code: 'DOCUMENT_NOT_READY', message: 'The document has no root element yet.', retryable: true } };
      }
      const startedAt = model.now();
      try {
        const update = model.update(full || broken);
        broken = false;
        const updateMs = model.now() - startedAt;
        for (const root of model.roots.values()) if (root.alive) churn.watch(root.key);
        const snapshot = assembleSnapshot({ model, structuredData, documentToken, startedAt, updateMs, volatile: churn.check(), openers, ...update });
        if (!closedRootsVisible(options)) snapshot.blindSpots.push('closed_shadow_roots_not_visible');
        return { ok: true, snapshot };
      } catch (error) {
        // The model may be half-updated: the next snapshot walks everything again.
        broken = true;
        const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        return { ok: false, error: { code: 'OBSERVE_FAILED', message: message.slice(0, 1000), retryable: true } };
      }
    },
    elementFor(ref: string): Element | undefined {
      const el = model.refs.lookup(ref);
      return el && dom.isConnected(el) ? el : undefined;
    },
    actedOn: (ref) => openers.actedOn(ref),
    dispose: () => {
      model.dispose();
      churn.dispose();
    },
  };
}

function closedRootsVisible(options: PageObserverOptions): boolean {
  return typeof options.closedShadowRootOf === 'function';
}
