import { PageChannelPush, RequestWire } from '../../protocol/page-channel.ts';
import type { WriteRequest } from '../../protocol/messages.ts';
import { redactUrl } from '../main/network-bounds.ts';

/**
 * Isolated world: the requests the page's main world says it started and finished, for the act
 * side — how many that an act set off are still in flight (it settles once none is), and which
 * may have written (any POST / PUT / PATCH / DELETE, a GET to another origin, a beacon). The main
 * world is the page's, so everything is validated and bounded again here, and what it says is
 * evidence of an effect, never proof that none happened. Pure apart from the clock.
 */

interface Entry {
  method: string;
  url: string;
  kind: WriteRequest['kind'];
  /** Isolated-world clock (ms) when the start was heard. */
  start: number;
  status?: number;
  done: boolean;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Resource-timing initiators the page's own markup or styles start (fetch and XHR are seen by the main world already). */
const RESOURCE_INITIATORS = new Set(['img', 'image', 'css', 'script', 'link', 'iframe', 'video', 'audio', 'input', 'other']);
/** How many requests are remembered (oldest forgotten first): a page firing thousands cannot grow this. */
const CAPACITY = 256;
const URL_CHARS = 512;

export class RequestLedger {
  private readonly entries = new Map<number, Entry>();
  private readonly ended = new Set<() => void>();
  private readonly now: () => number;
  /** Messages refused (bad shape): a hostile page shows up here. */
  rejected = 0;
  /** Form submissions and resources get ids of their own (negative: the page’s ids are not). */
  private forms = 0;

  constructor(
    private readonly origin: string,
    now?: () => number,
  ) {
    this.now = now ?? (() => performance.now());
  }

  /** Takes one message from the private port; anything but a valid `request` push is ignored. */
  acceptEvent(data: unknown): void {
    const parsed = PageChannelPush.safeParse(data);
    if (parsed.success && parsed.data.type === 'request') this.accept(parsed.data.request);
  }

  accept(wire: unknown): void {
    const parsed = RequestWire.safeParse(wire);
    if (!parsed.success) {
      this.rejected++;
      return;
    }
    const r = parsed.data;
    if (r.phase === 'end') {
      const e = this.entries.get(r.id);
      if (e) Object.assign(e, { status: r.status, done: true });
      for (const wake of [...this.ended]) wake();
      return;
    }
    if (this.entries.has(r.id)) return; // a replayed id cannot reset a request's start
    const method = r.method.toUpperCase();
    // A beacon is never answered: it is not waited for.
    this.add(r.id, { method: /^[A-Z]{1,16}$/.test(method) ? method : 'GET', url: bounded(r.url), kind: r.kind, start: this.now(), done: r.kind === 'beacon' });
  }

  /** A form submission the isolated world saw itself (its submit event, not prevented). */
  noteForm(method: string, url: string): void {
    this.add(-++this.forms, { method: method.toUpperCase() === 'POST' ? 'POST' : 'GET', url: bounded(url), kind: 'form', start: this.now(), done: true });
  }

  /**
   * A resource the page loaded by itself (the browser's resource timing, which the page cannot
   * forge from the main world): an image, a style sheet's picture, a script from another origin.
   * Its address is a GET that can carry data out (a live preview's `![](http://elsewhere/?d=…)`);
   * only other origins are kept. `startMs` is on the same clock as the ledger's default.
   */
  noteResource(url: string, initiator: string, startMs: number): void {
    if (!RESOURCE_INITIATORS.has(initiator) || sameOrigin(url, this.origin)) return;
    this.add(-++this.forms, { method: 'GET', url: bounded(url), kind: 'image', start: startMs, done: true });
  }

  private add(id: number, entry: Entry): void {
    this.entries.set(id, entry);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Calls `wake` whenever a request ends (settling waits on it); returns the unsubscribe. */
  onEnd(wake: () => void): () => void {
    this.ended.add(wake);
    return () => this.ended.delete(wake);
  }

  /** Requests started at or after `since` that have not ended. */
  inFlightSince(since: number): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.start >= since && !e.done) n++;
    return n;
  }

  /** Requests started at or after `since` that may have written, oldest first (at most 32). */
  writesSince(since: number): WriteRequest[] {
    const out: WriteRequest[] = [];
    for (const e of this.entries.values()) {
      if (e.start < since || !this.writes(e)) continue;
      out.push({ method: e.method, url: e.url, kind: e.kind, ...(e.status !== undefined ? { status: e.status } : {}), at_ms: Math.min(600_000, Math.max(0, Math.round(e.start - since))) });
      if (out.length >= 32) break;
    }
    return out;
  }

  private writes(e: Entry): boolean {
    if (e.kind === 'beacon') return true;
    if (e.kind === 'form') return e.method === 'POST';
    if (!READ_METHODS.has(e.method)) return true;
    return !sameOrigin(e.url, this.origin);
  }
}

function bounded(url: string): string {
  return (redactUrl(url) ?? '(an address Steward could not read)').slice(0, URL_CHARS);
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}
