import type { Refusal } from '../../protocol/channel.ts';
import type { ContentObserve, ContentQuery } from '../../protocol/content-channel.ts';
import type { QueryResponse } from '../../protocol/messages.ts';
import { createPageObserver, type PageObserver } from '../../observation/dom/observer.ts';
import { ChurnDetector } from '../../observation/dom/churn.ts';
import { query } from '../../observation/render/query.ts';
import { DeltaEncoder } from './snapshot-delta.ts';
import { packObserveReply } from '../../protocol/packed-rows.ts';
import { chromeOnly } from '../browser.ts';
import { isOwn } from '../presence/own-elements.ts';

/**
 * The content script's side of `content/observe` and `content/query`. The observer (and its
 * MutationObserver) is created on the first request, so a frame nobody asks about costs little;
 * only the churn detector starts at once (cheap: it notes which texts change on their own), so
 * that a clock has been seen ticking before the first observation.
 * Every answer is a reply envelope; nothing here throws into the message router.
 */

type Failure = Refusal;
/** `data`: the ObserveReplyData as JSON text, its long lists packed (see ObserveReplyText). */
export type ObserveReply = { ok: true; data: string } | Failure;
export type QueryReply = { ok: true; data: QueryResponse } | Failure;

/** dom.openOrClosedShadowRoot when the browser offers it to content scripts (Chrome 88+). */
function closedShadowRootReader(): ((el: Element) => ShadowRoot | null) | undefined {
  const api = chromeOnly.dom;
  const open = api?.openOrClosedShadowRoot;
  if (typeof open !== 'function') return undefined;
  // Steward's own indicator is not the page: its root is never read (own-elements.ts).
  return (el) => (isOwn(el) ? null : open.call(api, el as HTMLElement));
}

const failure = (code: string, message: string, retryable: boolean): Failure => ({ ok: false, error: { code, message: message.slice(0, 1000), retryable } });

export class ObservationHost {
  private observer: PageObserver | undefined;
  private readonly deltas = new DeltaEncoder();
  private readonly churn = new ChurnDetector(document);

  private get pageObserver(): PageObserver {
    this.observer ??= createPageObserver({ document, closedShadowRootOf: closedShadowRootReader(), churn: this.churn });
    return this.observer;
  }

  /** For src/content/act/: the live element behind a ref this observer issued (none before the first observation). */
  elementFor(ref: string): Element | undefined {
    return this.observer?.elementFor(ref);
  }

  /** For src/content/act/: a step acted on this ref; what shows next (a menu, a suggestion list) is tied to it. */
  actedOn(ref: string): void {
    this.observer?.actedOn(ref);
  }

  /** The token of the document the refs belong to (undefined until the frame is first observed). */
  get documentToken(): string | undefined {
    return this.observer?.documentToken;
  }

  observe(request: ContentObserve): ObserveReply {
    try {
      const outcome = this.pageObserver.snapshot({ full: request.full === true });
      if (!outcome.ok) return failure(outcome.error.code, outcome.error.message, outcome.error.retryable);
      return { ok: true, data: JSON.stringify(packObserveReply(this.deltas.encode(outcome.snapshot, request.since, request.full === true || request.verify === true))) };
    } catch (error) {
      return failure('OBSERVE_FAILED', String(error), true);
    }
  }

  query(request: ContentQuery): QueryReply {
    try {
      const observer = this.pageObserver;
      if (request.documentToken !== undefined && request.documentToken !== observer.documentToken) {
        return failure('STALE_DOCUMENT', 'This frame now holds another document; its refs are not the ones asked about. Observe again.', false);
      }
      const outcome = observer.snapshot();
      if (!outcome.ok) return failure(outcome.error.code, outcome.error.message, outcome.error.retryable);
      const result = query(outcome.snapshot, request.query);
      return { ok: true, data: { documentToken: observer.documentToken, ...result } };
    } catch (error) {
      return failure('QUERY_FAILED', String(error), true);
    }
  }
}
