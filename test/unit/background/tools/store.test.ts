import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from '@webext-core/fake-browser';
import { ToolStore } from '../../../../src/background/tools/store.ts';

describe('ToolStore', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps the registry across a service-worker restart', async () => {
    const area = fakeBrowser.storage.session as unknown as chrome.storage.StorageArea;
    const first = new ToolStore(area);
    await first.ready;
    first.registry.report(
      { tabId: 4, frameId: 0, origin: 'http://localhost:4101', url: 'http://localhost:4101/', api: 'polyfill', tools: [] },
      new Date('2026-11-30T00:00:00Z'),
    );
    await first.save();

    const restarted = new ToolStore(area);
    await restarted.ready;
    expect(restarted.registry.tab(4)).toHaveLength(1);
    expect(restarted.registry.tab(4)[0]?.api).toBe('polyfill');
  });

  it('starts empty, without throwing, when the stored record is corrupt', async () => {
    const area = fakeBrowser.storage.session as unknown as chrome.storage.StorageArea;
    await area.set({ 'webmcp.frames': [{ tabId: 'nope' }] });
    const store = new ToolStore(area);
    await store.ready;
    expect(store.registry.all()).toEqual([]);
  });
});
