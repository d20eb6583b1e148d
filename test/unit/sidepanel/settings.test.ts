import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, SETTINGS_KEY } from '../../../src/protocol/settings.ts';
import { saveSettings, settings, trackSettings } from '../../../src/sidepanel/settings.ts';

describe('the panel’s settings, kept in the local storage area', () => {
  it('loads what is stored (a bad field falls back to its default) and follows changes made elsewhere', async () => {
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { ...DEFAULT_SETTINGS, approval_window_minutes: 5, token_lifetime_minutes: -3 } });
    trackSettings();
    await vi.waitFor(() => expect(settings.value).toEqual({ ...DEFAULT_SETTINGS, approval_window_minutes: 5 }));

    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { ...DEFAULT_SETTINGS, polyfill_enabled: false } });
    expect(settings.value.polyfill_enabled).toBe(false);
  });

  it('saves only valid settings', async () => {
    const saved = await saveSettings({ ...DEFAULT_SETTINGS, token_lifetime_minutes: 120 });
    expect(await fakeBrowser.storage.local.get(SETTINGS_KEY)).toEqual({ [SETTINGS_KEY]: saved });
    expect(settings.value.token_lifetime_minutes).toBe(120);

    await expect(saveSettings({ ...DEFAULT_SETTINGS, approval_window_minutes: 0 })).rejects.toThrow('at least 1 minute');
    expect(await fakeBrowser.storage.local.get(SETTINGS_KEY)).toEqual({ [SETTINGS_KEY]: saved });
  });
});
