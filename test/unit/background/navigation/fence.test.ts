import { describe, expect, it } from 'vitest';
import { commonOrigins, fenceRules, type FenceRule } from '../../../../src/background/navigation/fence-rules.ts';
import { navigationFence, type SessionRulesApi } from '../../../../src/background/navigation/fence.ts';

const LAB = 'http://localhost:4102';
const SHOP = 'http://localhost:4100';

/** declarativeNetRequest's urlFilter as the fence uses it: `|` anchors at the start, nothing else special. */
const matches = (rule: FenceRule, url: string) => rule.condition.urlFilter === undefined || url.startsWith(rule.condition.urlFilter.replace(/^\|/, ''));

/** What Chrome decides for a main-frame request in `tabId`: the highest-priority matching rule wins. */
function decide(rules: readonly FenceRule[], tabId: number, url: string): 'block' | 'allow' | 'none' {
  const hit = rules.filter((r) => r.condition.tabIds.includes(tabId) && matches(r, url)).sort((a, b) => b.priority - a.priority)[0];
  return hit?.action.type ?? 'none';
}

describe('fence rules', () => {
  const rules = fenceRules(7, [LAB, SHOP], 10);

  it('block every main-frame request of the tab but those on the origins, each origin exactly', () => {
    expect(rules.map((r) => r.id)).toEqual([10, 11, 12]);
    expect(rules.every((r) => r.condition.resourceTypes.join() === 'main_frame' && r.condition.tabIds.join() === '7')).toBe(true);
    expect(decide(rules, 7, `${LAB}/partners`)).toBe('allow');
    expect(decide(rules, 7, `${SHOP}/orders/ORD-1024`)).toBe('allow');
    expect(decide(rules, 7, 'http://127.0.0.1:9/collect?order=ORD-1024')).toBe('block');
    // A longer port, a user-info trick and another scheme of the same host are other origins.
    expect(decide(rules, 7, 'http://localhost:41020/')).toBe('block');
    expect(decide(rules, 7, 'http://localhost:4102@127.0.0.1:9/')).toBe('block');
    expect(decide(rules, 7, 'https://localhost:4102/')).toBe('block');
    // Another tab is never touched.
    expect(decide(rules, 8, 'http://127.0.0.1:9/')).toBe('none');
  });

  it('two holders of one tab get only the origins both may reach', () => {
    expect(commonOrigins([[LAB, SHOP], [SHOP]])).toEqual([SHOP]);
    expect(commonOrigins([[LAB]])).toEqual([LAB]);
    expect(commonOrigins([])).toEqual([]);
  });
});

class FakeRules implements SessionRulesApi {
  rules: FenceRule[] = [];
  constructor(stale: FenceRule[] = []) {
    this.rules = stale;
  }
  async updateSessionRules(o: { removeRuleIds?: number[]; addRules?: FenceRule[] }): Promise<void> {
    const ids = new Set([...(o.addRules ?? []).map((r) => r.id)]);
    const kept = this.rules.filter((r) => !(o.removeRuleIds ?? []).includes(r.id));
    if (kept.some((r) => ids.has(r.id))) throw new Error('duplicate rule id');
    this.rules = [...kept, ...(o.addRules ?? [])];
  }
  async getSessionRules() {
    return this.rules;
  }
}

describe('the navigation fence', () => {
  it('clears rules left by a worker that stopped, fences a tab while held, intersects a second holder, and lifts on release', async () => {
    const api = new FakeRules(fenceRules(3, [LAB], 1));
    const fence = navigationFence(api);
    const releaseA = await fence.hold(7, [LAB, SHOP]);
    expect(decide(api.rules, 3, 'http://127.0.0.1:9/')).toBe('none');
    expect(decide(api.rules, 7, 'http://127.0.0.1:9/')).toBe('block');
    expect(decide(api.rules, 7, `${LAB}/`)).toBe('allow');

    const releaseB = await fence.hold(7, [SHOP]);
    expect(decide(api.rules, 7, `${LAB}/`)).toBe('block');
    expect(decide(api.rules, 7, `${SHOP}/`)).toBe('allow');

    await releaseB();
    expect(decide(api.rules, 7, `${LAB}/`)).toBe('allow');
    await releaseA();
    await releaseA();
    expect(api.rules).toEqual([]);
  });
});
