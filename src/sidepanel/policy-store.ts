import { signal } from '@preact/signals';
import { LAST_POLICY_READING_KEY, NO_POLICY, parsePolicy, type ParsedPolicy } from '../protocol/managed-policy.ts';
import { browser } from './browser.ts';

/**
 * The organisation's policy as the panel shows it: read from chrome.storage.managed with the same
 * pure reading the worker applies, and read again when Chrome reloads it. The panel only shows it
 * (managed settings, problems); the worker enforces it whatever the panel shows.
 */
export const orgPolicy = signal<ParsedPolicy>({ policy: NO_POLICY, problems: [] });

export function trackPolicy(): void {
  let answered = false;
  const read = () =>
    void browser.storage.managed.get().then(
      (raw) => {
        answered = true;
        orgPolicy.value = parsePolicy(raw);
      },
      () => undefined,
    );
  // Until Chrome answers (at a slow start it may not for a while), the last reading it gave, as the worker applies it.
  void browser.storage.local.get(LAST_POLICY_READING_KEY).then(
    (kept) => {
      const raw = kept[LAST_POLICY_READING_KEY];
      if (!answered && raw !== undefined) orgPolicy.value = parsePolicy(raw);
    },
    () => undefined,
  );
  read();
  browser.storage.onChanged.addListener((_changes, area) => {
    if (area === 'managed') read();
  });
}
