import { describe, expect, it } from 'vitest';
import { combinedScope, commonOrigins, fenceRules, hostsOf, newTabRules, openedSince, pageCouldOpen, type FenceRule } from '../../../../src/background/navigation/fence-rules.ts';
import { navigationFence, type FenceTabs, type SessionRulesApi } from '../../../../src/background/navigation/fence.ts';

type TabInfo = Awaited<ReturnType<FenceTabs['query']>>[number];

const LAB = 'http://localhost:4102';
const SHOP = 'http://localhost:4100';
const OTHER = 'http://127.0.0.1:9/collect?order=ORD-1024';

/** A main-frame request as Chrome matches it: the tab it is in, its URL, and the origin of the page that started it (none when the person typed it). */
interface Request {
  tabId: number;
  url: string;
  initiator?: string;
}

/** declarativeNetRequest's urlFilter as the fence uses it: `|` anchors at the start, nothing else special. */
const urlMatches = (rule: FenceRule, url: string) => rule.condition.urlFilter === undefined || url.startsWith(rule.condition.urlFilter.replace(/^\|/, ''));

/** initiatorDomains as Chrome reads it: the initiator's host is a listed domain or a sub-domain of one; ports and schemes are not compared; no initiator never matches. */
function initiatorMatches(rule: FenceRule, initiator: string | undefined): boolean {
  const domains = 'initiatorDomains' in rule.condition ? rule.condition.initiatorDomains : undefined;
  if (domains === undefined) return true;
  if (initiator === undefined) return false;
  const host = new URL(initiator).hostname;
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

function tabMatches(rule: FenceRule, tabId: number): boolean {
  const c = rule.condition;
  if ('tabIds' in c) return c.tabIds.includes(tabId);
  return !(c.excludedTabIds ?? []).includes(tabId);
}

/** What Chrome decides for a main-frame request: the highest-priority matching rule wins (allow over block at equal priority). */
function decide(rules: readonly FenceRule[], r: Request): 'block' | 'allow' | 'none' {
  const hits = rules.filter((rule) => tabMatches(rule, r.tabId) && initiatorMatches(rule, r.initiator) && urlMatches(rule, r.url));
  const top = Math.max(...hits.map((h) => h.priority));
  const best = hits.filter((h) => h.priority === top);
  if (best.length === 0) return 'none';
  return best.some((h) => h.action.type === 'allow') ? 'allow' : 'block';
}

describe('fence rules for the agent’s tab', () => {
  const rules = fenceRules(7, [LAB, SHOP], 10);

  it('block every main-frame request of the tab but those on the origins, each origin exactly', () => {
    expect(rules.map((r) => r.id)).toEqual([10, 11, 12]);
    expect(rules.every((r) => r.condition.resourceTypes.join() === 'main_frame' && 'tabIds' in r.condition && r.condition.tabIds.join() === '7')).toBe(true);
    expect(decide(rules, { tabId: 7, url: `${LAB}/partners` })).toBe('allow');
    expect(decide(rules, { tabId: 7, url: `${SHOP}/orders/ORD-1024` })).toBe('allow');
    expect(decide(rules, { tabId: 7, url: OTHER })).toBe('block');
    // A longer port, a user-info trick and another scheme of the same host are other origins.
    expect(decide(rules, { tabId: 7, url: 'http://localhost:41020/' })).toBe('block');
    expect(decide(rules, { tabId: 7, url: 'http://localhost:4102@127.0.0.1:9/' })).toBe('block');
    expect(decide(rules, { tabId: 7, url: 'https://localhost:4102/' })).toBe('block');
    // Another tab is never touched.
    expect(decide(rules, { tabId: 8, url: OTHER })).toBe('none');
  });

  it('two holders of one tab get only the origins both may reach', () => {
    expect(commonOrigins([[LAB, SHOP], [SHOP]])).toEqual([SHOP]);
    expect(commonOrigins([[LAB]])).toEqual([LAB]);
    expect(commonOrigins([])).toEqual([]);
  });
});

describe('fence rules for tabs opened while a step runs', () => {
  // Tabs 1 and 7 (the agent's) were open when the step started; 20 is a pop-up the step's click opened.
  const rules = newTabRules({ exceptTabIds: [7, 1], initiators: hostsOf([LAB]), origins: [LAB] }, 30);

  it('a navigation a page of the agent’s site starts in a new tab stays on the origins, from its first request', () => {
    expect(decide(rules, { tabId: 20, url: OTHER, initiator: LAB })).toBe('block');
    expect(decide(rules, { tabId: 20, url: `${LAB}/offer`, initiator: LAB })).toBe('allow');
    // A tab Chrome gives no id (-1) is not one of the tabs left alone either.
    expect(decide(rules, { tabId: -1, url: OTHER, initiator: LAB })).toBe('block');
    // initiatorDomains sees hosts only: the same host on another port or a sub-domain is fenced too (more, never less).
    expect(decide(rules, { tabId: 20, url: OTHER, initiator: 'http://localhost:5555' })).toBe('block');
    expect(decide(rules, { tabId: 20, url: 'http://localhost:41020/', initiator: LAB })).toBe('block');
  });

  it('leaves alone the tabs that were open before, the person’s typed navigations, and pages of other sites', () => {
    expect(decide(rules, { tabId: 1, url: OTHER, initiator: LAB })).toBe('none');
    expect(decide(rules, { tabId: 20, url: OTHER })).toBe('none');
    expect(decide(rules, { tabId: 20, url: OTHER, initiator: 'https://news.example' })).toBe('none');
    expect(rules[0]!.condition).toEqual({ excludedTabIds: [1, 7], initiatorDomains: ['localhost'], resourceTypes: ['main_frame'] });
  });

  it('with no host known, fences every navigation in a new tab', () => {
    const all = newTabRules({ exceptTabIds: [7], initiators: [], origins: [LAB] }, 1);
    expect(decide(all, { tabId: 20, url: OTHER })).toBe('block');
    expect(decide(all, { tabId: 7, url: OTHER })).toBe('none');
  });

  it('several running steps: a tab is left alone only if it predates all of them; hosts add up; origins are those all may reach', () => {
    expect(
      combinedScope([
        { origins: [LAB, SHOP], existing: [1, 7], initiators: ['localhost'] },
        { origins: [SHOP], existing: [1, 7, 9], initiators: ['shop.example'] },
      ]),
    ).toEqual({ exceptTabIds: [1, 7], initiators: ['localhost', 'shop.example'], origins: [SHOP] });
  });

  it('hosts are read as initiatorDomains wants them; non-web URLs have none', () => {
    expect(hostsOf([LAB, SHOP, 'https://Bücher.example:8443/x', 'chrome://newtab/', undefined, 'junk'])).toEqual(['localhost', 'xn--bcher-kva.example']);
  });
});

describe('which new tabs are the step’s', () => {
  it('a web page can open http(s), about:blank, blob:, data: tabs; only the browser (the person) opens its own pages', () => {
    for (const url of ['http://a.example/', 'about:blank', 'blob:http://a.example/1', '', undefined]) expect(pageCouldOpen(url), String(url)).toBe(true);
    for (const url of ['chrome://newtab/', 'chrome-search://local-ntp/', 'chrome-extension://abc/page.html', 'file:///tmp/a']) expect(pageCouldOpen(url), url).toBe(false);
  });

  it('the tabs opened since the step started, but for those known to be the person’s', () => {
    expect(openedSince([1, 7], [{ id: 7 }, { id: 1 }, { id: 20 }, {}, { id: 24 }], [24])).toEqual([20]);
  });
});

class FakeRules implements SessionRulesApi {
  rules: FenceRule[] = [];
  failNext = false;
  constructor(stale: FenceRule[] = []) {
    this.rules = stale;
  }
  async updateSessionRules(o: { removeRuleIds?: number[]; addRules?: FenceRule[] }): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('rule limit reached');
    }
    const ids = new Set([...(o.addRules ?? []).map((r) => r.id)]);
    const kept = this.rules.filter((r) => !(o.removeRuleIds ?? []).includes(r.id));
    if (kept.some((r) => ids.has(r.id))) throw new Error('duplicate rule id');
    this.rules = [...kept, ...(o.addRules ?? [])];
  }
  async getSessionRules() {
    return this.rules;
  }
}

/** chrome.tabs as the fence sees it: the open tabs, and tabs opening. */
class FakeTabs implements FenceTabs {
  open: TabInfo[];
  private readonly listeners: Array<(tab: TabInfo) => void> = [];
  constructor(ids: number[]) {
    this.open = ids.map((id) => ({ id, url: `${LAB}/page` }));
  }
  async query() {
    return this.open;
  }
  onCreated = { addListener: (l: (tab: TabInfo) => void) => void this.listeners.push(l) };
  opens(tab: TabInfo): void {
    this.open.push(tab);
    for (const l of this.listeners) l(tab);
  }
}

/** Lets the fence's queued rule changes run. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the navigation fence', () => {
  it('clears rules left by a worker that stopped, fences a tab while held, intersects a second holder, and lifts on release', async () => {
    const api = new FakeRules(fenceRules(3, [LAB], 1));
    const fence = navigationFence(api, new FakeTabs([3, 7]));
    const a = await fence.hold(7, [LAB, SHOP]);
    expect(decide(api.rules, { tabId: 3, url: OTHER, initiator: LAB })).toBe('none');
    expect(decide(api.rules, { tabId: 7, url: OTHER })).toBe('block');
    expect(decide(api.rules, { tabId: 7, url: `${LAB}/` })).toBe('allow');

    const b = await fence.hold(7, [SHOP]);
    expect(decide(api.rules, { tabId: 7, url: `${LAB}/` })).toBe('block');
    expect(decide(api.rules, { tabId: 7, url: `${SHOP}/` })).toBe('allow');

    await b.release();
    expect(decide(api.rules, { tabId: 7, url: `${LAB}/` })).toBe('allow');
    await a.release();
    await a.release();
    expect(api.rules).toEqual([]);
  });

  it('while a step runs, a tab its page opens is fenced from its first request, then like the agent’s own tab; the person’s new tab is not the step’s', async () => {
    const api = new FakeRules();
    const tabs = new FakeTabs([1, 7]);
    const fence = navigationFence(api, tabs);
    const held = await fence.hold(7, [LAB]);

    // Before Chrome even says the pop-up exists: its navigation, started by the lab page, is fenced.
    expect(decide(api.rules, { tabId: 20, url: OTHER, initiator: LAB })).toBe('block');
    // The person's tab that was open before, and the person typing an address in a new tab, are not.
    expect(decide(api.rules, { tabId: 1, url: OTHER, initiator: LAB })).toBe('none');
    expect(decide(api.rules, { tabId: 30, url: OTHER })).toBe('none');

    // Chrome reports the pop-up (opened from tab 7): from then on every navigation in it is fenced, whoever starts it.
    tabs.opens({ id: 20, openerTabId: 7, pendingUrl: OTHER });
    // Ctrl+T from the agent's tab: Chrome may name tab 7 as its opener, but it starts on the browser's own page.
    tabs.opens({ id: 30, openerTabId: 7, pendingUrl: 'chrome://newtab/' });
    await settle();
    expect(decide(api.rules, { tabId: 20, url: OTHER })).toBe('block');
    expect(decide(api.rules, { tabId: 20, url: `${LAB}/offer` })).toBe('allow');
    expect(decide(api.rules, { tabId: 30, url: OTHER })).toBe('none');
    expect(await held.opened()).toEqual([20]);
    tabs.opens({ id: 21 });
    expect(await held.opened()).toEqual([20, 21]);

    await held.release();
    expect(api.rules).toEqual([]);
    expect(decide(api.rules, { tabId: 20, url: OTHER, initiator: LAB })).toBe('none');
  });

  it('a step whose rules cannot be installed does not run fenced-looking, and leaves nothing behind for the next', async () => {
    const api = new FakeRules();
    const fence = navigationFence(api, new FakeTabs([7, 8]));
    await settle();
    api.failNext = true;
    await expect(fence.hold(7, [LAB])).rejects.toThrow('rule limit');
    const next = await fence.hold(8, [SHOP]);
    expect(decide(api.rules, { tabId: 7, url: `${SHOP}/` })).toBe('none');
    expect(decide(api.rules, { tabId: 8, url: `${LAB}/` })).toBe('block');
    await next.release();
    expect(api.rules).toEqual([]);
  });
});
