import { signal } from '@preact/signals';
import { DEFAULT_SETTINGS, SETTINGS_KEY, Settings, readSettings } from '../protocol/settings.ts';
import { browser } from './browser.ts';

/** The settings as the panel knows them; kept in step with chrome.storage.local. */
export const settings = signal<Settings>(DEFAULT_SETTINGS);

export function trackSettings(): void {
  void browser.storage.local.get(SETTINGS_KEY).then((items) => {
    settings.value = readSettings(items[SETTINGS_KEY]);
  });
  // Another panel window (or the co-pilot) may change them too.
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[SETTINGS_KEY]) settings.value = readSettings(changes[SETTINGS_KEY].newValue);
  });
}

/** Validates, stores and returns what was actually saved (a bad value becomes its default). */
export async function saveSettings(next: Settings): Promise<Settings> {
  const checked = Settings.safeParse(next);
  if (!checked.success) throw new Error(checked.error.issues[0]?.message ?? 'Invalid settings.');
  await browser.storage.local.set({ [SETTINGS_KEY]: checked.data });
  settings.value = checked.data;
  return checked.data;
}
