import { describe, expect, it, vi } from 'vitest';
import { TabObserver, type TabObserverDeps } from '../../../../src/background/ports/tab-observer.ts';
import { shopAdapter } from '../../../../src/observation/adapters/index.ts';
import type { PageSnapshot } from '../../../../src/protocol/snapshot.ts';
import type { ToolDescriptor } from '../../../../src/protocol/webmcp.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';

/** How long a new state must hold still (the observer's SETTLE_MS), written out so a changed value fails here. */
const SETTLE_MS = 250;

/** A virtual clock: sleeping advances it, so settling is tested without real waiting. */
function observerWith(snapshots: Array<PageSnapshot | { error: string; retryable: boolean }>, over: Partial<TabObserverDeps> = {}) {
  let t = 1_000_000;
  const calls = { snapshot: 0 };
  const deps: TabObserverDeps = {
    snapshot: async () => {
      const s = snapshots[Math.min(calls.snapshot++, snapshots.length - 1)]!;
      return 'error' in s ? { ok: false, error: { code: s.error, message: s.error, retryable: s.retryable } } : { ok: true, data: s };
    },
    tools: async () => ({ tools: [] }),
    adapters: () => [shopAdapter()],
    waitLoaded: async () => true,
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
    ...over,
  };
  return { observer: new TabObserver(deps), calls, advance: (ms: number) => (t += ms) };
}

const page = (o: Parameters<typeof shopOrderSnapshot>[0] = {}) => ({ ...shopOrderSnapshot({ origin: 'http://localhost:4100', ...o }), documentToken: 'doc-A' });

describe('TabObserver', () => {
  it('fuses the snapshot with the shop adapter and keeps how its actions map onto controls', async () => {
    const { observer } = observerWith([page()]);
    const r = await observer.observe(7);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.tab.state).toMatchObject({ resource: { type: 'order', id: 'ORD-1024' }, state: 'awaiting_payment', source: 'adapter' });
    expect(r.tab.bindings.map((b) => b.action.action)).toContain('orders.cancel');
    expect(r.tab.adapterIds).toEqual(['larkspur-shop.order']);
    expect(observer.last(7)?.documentToken).toBe('doc-A');
  });

  it('observes again until the state has held still for SETTLE_MS, and returns the state it settled on', async () => {
    const { observer, calls } = observerWith([page(), page({ status: 'paid' }), page({ status: 'paid' })]);
    const r = await observer.observe(7);
    expect(calls.snapshot).toBe(3);
    expect(r.ok && r.tab.state.state).toBe('paid');
  });

  it('churn without meaning (the status line filling in) does not hold the observation up', async () => {
    const { observer, calls } = observerWith([page({ liveStatus: 'Live status: checking…' }), page({ liveStatus: 'Live status: Awaiting payment' })]);
    await observer.observe(7);
    expect(calls.snapshot).toBe(2);
  });

  it('gives up settling after MAX_SETTLE_MS and returns the latest observation', async () => {
    let n = 0;
    const { observer, calls } = observerWith([], { snapshot: async () => ({ ok: true, data: page({ canvasHash: `h${n++}` }) }) });
    const r = await observer.observe(7);
    expect(r.ok).toBe(true);
    expect(calls.snapshot).toBe(0);
    expect(n).toBeGreaterThan(3);
    expect(n).toBeLessThan(20);
  });

  it('an earlier observation of the same state counts: a settled page is observed once', async () => {
    const { observer, calls, advance } = observerWith([page()]);
    await observer.observe(7);
    const after = calls.snapshot;
    advance(SETTLE_MS + 1);
    await observer.observe(7);
    expect(calls.snapshot - after).toBe(1);
  });

  it('a new document is never settled by an old one with the same content', async () => {
    const { observer, calls, advance } = observerWith([page(), page(), { ...page(), documentToken: 'doc-B' }, { ...page(), documentToken: 'doc-B' }]);
    await observer.observe(7);
    advance(10 * SETTLE_MS);
    const before = calls.snapshot;
    await observer.observe(7);
    expect(calls.snapshot - before).toBe(2);
    expect(observer.last(7)?.documentToken).toBe('doc-B');
  });

  it('retries a content script that is not listening yet, then gives the error', async () => {
    const { observer, calls } = observerWith([{ error: 'NO_CONTENT_SCRIPT', retryable: true }, page(), page()]);
    expect((await observer.observe(7)).ok).toBe(true);
    expect(calls.snapshot).toBeGreaterThanOrEqual(2);
    const broken = observerWith([{ error: 'INVALID_REPLY', retryable: false }]);
    expect(await broken.observer.observe(7)).toMatchObject({ ok: false, error: { code: 'INVALID_REPLY' } });
    const gone = observerWith([page()], { waitLoaded: async () => false });
    expect(await gone.observer.observe(7)).toMatchObject({ ok: false, error: { code: 'TAB_GONE' } });
  });

  it('only tools reported for this document’s URL are fused; a non-http page is an error, not a crash', async () => {
    const tool: ToolDescriptor = { name: 'track', description: 'x', kind: 'imperative', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } } as ToolDescriptor;
    const tools = vi.fn(async () => ({ tools: [tool] }));
    const { observer } = observerWith([page()], { tools });
    const r = await observer.observe(7);
    expect(tools).toHaveBeenCalledWith(7, 'http://localhost:4100/orders/ORD-1024');
    expect(r.ok && r.tab.state.available_actions).toContain('track');
    const odd = observerWith([{ ...page(), url: 'chrome://settings/' }]);
    expect(await odd.observer.observe(7)).toMatchObject({ ok: false, error: { code: 'UNSUPPORTED_URL' } });
  });
});

describe('TabObserver settling by the page’s own events', () => {
  it('a quiet page showing what was seen last is observed once, without waiting; a new state must hold SETTLE_MS first, by the page’s events', async () => {
    const sleep = vi.fn(async () => undefined);
    const settle = vi.fn(async () => ({ ms: 0, how: 'quiet' as const, key: 'k1' }));
    const { observer, calls } = observerWith([page(), page({ status: 'paid' })], { settle, sleep });
    // First look: nothing seen before, so the state must hold: the page says its DOM has been still
    // SETTLE_MS since its last change and is as it was read (same key) — no timer, no second read.
    const first = await observer.observe(7);
    expect(first.ok && first.tab.state.state).toBe('awaiting_payment');
    expect(calls.snapshot).toBe(1);
    expect(settle).toHaveBeenCalledWith(7, SETTLE_MS);
    expect(settle).toHaveBeenCalledWith(7, SETTLE_MS, SETTLE_MS);
    expect(sleep).not.toHaveBeenCalled();
    // Nothing changed since: one read, no hold.
    settle.mockClear();
    const again = await observer.observe(7);
    expect(again.ok && again.tab.state.state).toBe('paid');
    expect(calls.snapshot).toBe(2);
    expect(settle).toHaveBeenCalledTimes(2);
    // And once more with the page unchanged: one settle, one read.
    settle.mockClear();
    await observer.observe(7);
    expect(settle).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('a new state that is the page as Steward’s own act left it (same key since the act settled) is returned without a hold; one changed since is held', async () => {
    const keys = ['k1', 'k1', 'k2', 'k3', 'k3'];
    const settle = vi.fn(async () => ({ ms: 0, how: 'quiet' as const, key: keys.shift()! }));
    const { observer, calls } = observerWith([page(), page({ status: 'paid' }), page({ status: 'shipped' })], { settle });
    await observer.observe(7);
    // The act came to rest by the page's events with key k2, and the page still shows it: no hold.
    observer.actSettled(7, 'k2');
    settle.mockClear();
    const after = await observer.observe(7);
    expect(after.ok && after.tab.state.state).toBe('paid');
    expect(settle).toHaveBeenCalledTimes(1);
    expect(calls.snapshot).toBe(2);
    // An act whose page changed again since it settled (k3, not k2): the new state is held as any other.
    observer.actSettled(7, 'k2');
    settle.mockClear();
    const later = await observer.observe(7);
    expect(later.ok && later.tab.state.state).toBe('shipped');
    expect(settle).toHaveBeenCalledWith(7, SETTLE_MS, SETTLE_MS);
  });

  it('a new state the page changes while it is held is read again (a churning page is told apart over time)', async () => {
    const keys = ['k1', 'k2', 'k2', 'k2'];
    const settle = vi.fn(async () => ({ ms: 0, how: 'quiet' as const, key: keys.shift()! }));
    const sleep = vi.fn(async () => undefined);
    const { observer, calls } = observerWith([page(), page({ status: 'paid' }), page({ status: 'paid' })], { settle, sleep });
    const r = await observer.observe(7);
    // Read, held but the page changed (k1 → k2), read again: the state differs, held again (k2 stays).
    expect(calls.snapshot).toBe(2);
    expect(r.ok && r.tab.state.state).toBe('paid');
    expect(sleep).not.toHaveBeenCalled();
  });

  it('a page still busy at the cap is settled when its state holds still; the page’s wait replaces the timer', async () => {
    const { observer, calls, advance } = observerWith([page(), page({ status: 'paid' }), page({ status: 'paid' })], {
      settle: async (_tab, capMs) => {
        advance(capMs);
        return { ms: capMs, how: 'capped', busy: ['mutations'] };
      },
      sleep: async () => {
        throw new Error('no timer while the page can say when it settles');
      },
    });
    const r = await observer.observe(7);
    expect(calls.snapshot).toBe(3);
    expect(r.ok && r.tab.state.state).toBe('paid');
  });

  it('a page that cannot say is re-read after SETTLE_MS, as without events', async () => {
    const sleep = vi.fn(async (ms: number) => void advance(ms));
    const { observer, calls, advance } = observerWith([page(), page()], { settle: async () => undefined, sleep });
    await observer.observe(7);
    expect(calls.snapshot).toBe(2);
    expect(sleep).toHaveBeenCalledWith(SETTLE_MS);
  });

  it('the quiet page’s key goes with the screenshot request (the same page state may reuse its pixels)', async () => {
    const screenshot = vi.fn(async () => ({ width: 1280, height: 720, blank: false }));
    const { observer } = observerWith([page()], { settle: async () => ({ ms: 3, how: 'quiet', key: 'k1' }), screenshot });
    await observer.observe(7);
    expect(screenshot).toHaveBeenCalledWith(7, 'k1');
  });
});

describe('TabObserver with screenshot evidence', () => {
  it('takes one screenshot per observation, after the page settled; a blank one over a painted DOM is a conflict', async () => {
    const screenshot = vi.fn(async () => ({ width: 1280, height: 720, blank: true }));
    const network = vi.fn(async () => []);
    const { observer, calls } = observerWith([page(), page({ status: 'paid' }), page({ status: 'paid' })], { screenshot, network });
    const r = await observer.observe(7);
    expect(calls.snapshot).toBe(3);
    expect(screenshot).toHaveBeenCalledTimes(1);
    // The pixels are fused with the records already read for the settled snapshot: nothing is asked of the page again.
    expect(network).toHaveBeenCalledTimes(3);
    if (!r.ok) throw new Error('expected an observation');
    expect(r.tab.state.evidence).toContain('screenshot');
    expect(r.tab.state.conflicts).toContain('screenshot_blank');
    expect(r.tab.state.state).toBe('paid');
    // The cached observation is the one with the screenshot, and keeps when the state was first seen.
    expect(observer.last(7)?.state.conflicts).toContain('screenshot_blank');
  });

  it('a painted screenshot adds evidence and no conflict; no screenshot (a background tab) changes nothing', async () => {
    const painted = observerWith([page(), page()], { screenshot: async () => ({ width: 1280, height: 720, blank: false }) });
    const a = await painted.observer.observe(7);
    expect(a.ok && a.tab.state.evidence).toContain('screenshot');
    expect(a.ok && a.tab.state.conflicts).not.toContain('screenshot_blank');
    const hidden = observerWith([page(), page()], { screenshot: async () => undefined });
    const b = await hidden.observer.observe(7);
    expect(b.ok && b.tab.state.evidence).not.toContain('screenshot');
  });
});
