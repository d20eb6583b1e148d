import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from '@webext-core/fake-browser';
import { ToolStore } from '../../../../src/background/tools/store.ts';

const frame = { tabId: 4, frameId: 0, origin: 'http://localhost:4101', url: 'http://localhost:4101/', api: 'polyfill' as const, tools: [] };

describe('ToolStore', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps the registry across a service-worker restart', async () => {
    const first = new ToolStore();
    await first.ready;
    first.registry.report(frame, new Date('2026-11-30T00:00:00Z'));
    await first.save();

    const restarted = new ToolStore();
    await restarted.ready;
    expect(restarted.registry.tab(4)).toHaveLength(1);
    expect(restarted.registry.tab(4)[0]?.api).toBe('polyfill');
  });

  it('saves the registry to the session area (memory only), nothing to local', async () => {
    const store = new ToolStore();
    await store.ready;
    store.registry.report(frame, new Date('2026-11-30T00:00:00Z'));
    await store.save();
    const { 'webmcp.frames': saved } = await fakeBrowser.storage.session.get('webmcp.frames');
    expect(saved).toEqual(store.registry.all());
    expect(saved).toMatchObject([{ tabId: 4, frameId: 0, origin: 'http://localhost:4101' }]);
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('starts empty, without throwing, when the stored record is corrupt', async () => {
    await fakeBrowser.storage.session.set({ 'webmcp.frames': [{ tabId: 'nope' }] });
    const store = new ToolStore();
    await store.ready;
    expect(store.registry.all()).toEqual([]);
  });
});
