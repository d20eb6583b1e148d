import type { Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { mint } from '../harness/pipeline-helpers.ts';

/**
 * The spec files share one browser, and Steward is reset in place between their tests
 * (test/harness/shared-browser.ts): what one test leaves in Steward, the next must not see, as
 * if each had a fresh profile. The first test leaves something everywhere Steward keeps state; the
 * second, in the same browser, finds Steward as freshly installed.
 */
test.describe.serial('between two tests in one browser', () => {
  let before: { startedAt: number; extensionId: string } | undefined;

  test('the first leaves tokens, audit entries, settings, alarms, a tab fence and an extra page script behind', async ({ steward, sites, openPanel }) => {
    const page = await steward.context.newPage();
    await page.goto(sites.urls.shop!);
    const panel = await openPanel(page);
    await mint(panel, { scope: ['orders:read'], resource_scope: '*', origins: [new URL(sites.urls.shop!).origin] });
    await steward.serviceWorker.evaluate(async () => {
      await chrome.storage.local.set({ 'steward.leftover': { from: 'the first test' }, 'steward.welcome': { status: 'dismissed' } });
      await chrome.storage.session.set({ 'steward.leftover': 1 });
      await chrome.alarms.create('leftover', { delayInMinutes: 60 });
      await chrome.declarativeNetRequest.updateSessionRules({
        addRules: [{ id: 4242, priority: 1, action: { type: 'block' as chrome.declarativeNetRequest.RuleActionType }, condition: { urlFilter: '||leftover.invalid' } }],
      });
      await chrome.scripting.registerContentScripts([{ id: 'leftover', matches: ['http://leftover.invalid/*'], js: ['src/content/isolated.iife.js'] }]);
    });
    const left = await stewardState(steward.serviceWorker);
    expect(left.audit).toBeGreaterThan(0);
    expect(left.tokens).toBe(1);
    expect(left.local).toContain('steward.leftover');
    before = { startedAt: left.startedAt, extensionId: steward.extensionId };
  });

  test('the second finds Steward as freshly installed: empty stores, a new worker, the welcome due, only the demo sites’ scripts', async ({ steward, sites }) => {
    expect(before, 'the first test ran in this browser').toBeDefined();
    const state = await stewardState(steward.serviceWorker);
    expect(steward.extensionId).toBe(before!.extensionId);
    expect(state.startedAt).toBeGreaterThan(before!.startedAt);
    expect(state.audit).toBe(0);
    expect(state.tokens).toBe(0);
    expect(state.local).not.toContain('steward.leftover');
    expect(state.welcome).toEqual({ status: 'new' });
    expect(state.session).not.toContain('steward.leftover');
    expect(state.alarms).not.toContain('leftover');
    expect(state.sessionRules).toEqual([]);
    const demo = Object.values(sites.urls).map((u) => `${new URL(u).origin}/*`);
    expect(state.scriptMatches.sort()).toEqual([...new Set(demo)].sort());
    expect(state.granted.sort()).toEqual([...new Set(demo)].sort());
  });
});

async function stewardState(worker: Worker) {
  return worker.evaluate(async () => {
    const db: IDBDatabase = await new Promise((resolve, reject) => {
      const request = indexedDB.open('steward');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const count = (store: string) =>
      new Promise<number>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const [audit, tokens] = [await count('audit'), await count('tokens')];
    db.close();
    const local = await chrome.storage.local.get(null);
    const scripts = await chrome.scripting.getRegisteredContentScripts();
    return {
      startedAt: (globalThis as unknown as { stewardPipeline: { startedAt: number } }).stewardPipeline.startedAt,
      audit,
      tokens,
      local: Object.keys(local),
      welcome: local['steward.welcome'] as unknown,
      session: Object.keys(await chrome.storage.session.get(null)),
      alarms: (await chrome.alarms.getAll()).map((a) => a.name),
      sessionRules: (await chrome.declarativeNetRequest.getSessionRules()).map((r) => r.id),
      scriptMatches: [...new Set(scripts.flatMap((s) => s.matches ?? []))],
      granted: (await chrome.permissions.getAll()).origins ?? [],
    };
  });
}
