import { describe, expect, it, vi } from 'vitest';
import { TabObserver, type SiteReading, type TabObserverDeps } from '../../../../src/background/ports/tab-observer.ts';
import { shopAdapter } from '../../../../src/observation/adapters/index.ts';
import type { ObservedState } from '../../../../src/protocol/observed-state.ts';
import { shopOrderSnapshot } from '../../observation/fixtures/shop-order-snapshot.ts';

/** The tab observer's hook for the contract path: the site's reading of a page, merged into its observation. */

const page = () => ({ ...shopOrderSnapshot({ origin: 'http://localhost:4100' }), documentToken: 'doc-A' });

function observer(over: Partial<TabObserverDeps> = {}) {
  let t = 1_000_000;
  return new TabObserver({
    snapshot: async () => ({ ok: true, data: page() }),
    tools: async () => ({ tools: [] }),
    adapters: () => [shopAdapter()],
    waitLoaded: async () => true,
    now: () => t,
    sleep: async (ms) => {
      t += ms;
    },
    ...over,
  });
}

/** A stand-in for the site's state: the order as the site says, with its integer version. */
const siteSays = (state: ObservedState): ObservedState => ({ ...state, source: 'site_contract', evidence: ['site_contract', ...state.evidence], state: 'paid', state_version: 7, confidence: 1 });

describe("the tab observer's site reading (contract path)", () => {
  it('a tab whose site granted nothing observes exactly as before', async () => {
    const before = await observer().observe(7);
    const siteState = vi.fn(async () => undefined);
    const after = await observer({ siteState }).observe(7);
    expect(siteState).toHaveBeenCalled();
    expect(after).toEqual(before);
    expect(before.ok && before.tab.state.source).toBe('adapter');
  });

  it("a failing hook is no reading: the page's own observation stands", async () => {
    const before = await observer().observe(7);
    const after = await observer({ siteState: async () => Promise.reject(new Error('site down')) }).observe(7);
    expect(after).toEqual(before);
  });

  it("merges the site's reading into every fusion of the observation, reading once per look at the page (the screenshot's fusion reuses it)", async () => {
    const reads: string[] = [];
    const siteState = vi.fn(async (url: string, _fused: ObservedState): Promise<SiteReading> => {
      reads.push(url);
      return { merge: siteSays };
    });
    const r = await observer({ siteState, screenshot: async () => ({ width: 1280, height: 720, blank: false }) }).observe(7);
    if (!r.ok) throw new Error('expected an observation');
    expect(r.tab.state).toMatchObject({ source: 'site_contract', state: 'paid', state_version: 7 });
    expect(r.tab.state.evidence).toContain('screenshot');
    // Observed twice to settle (same version both times): two reads, none for the screenshot.
    expect(reads).toEqual(['http://localhost:4100/orders/ORD-1024', 'http://localhost:4100/orders/ORD-1024']);
    // The hook saw the page's own fused state.
    expect(siteState.mock.calls[0]![1]).toMatchObject({ source: 'adapter', state: 'awaiting_payment' });
  });
});
