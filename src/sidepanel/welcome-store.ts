import { signal } from '@preact/signals';
import { WELCOME_KEY, readWelcome, type WelcomeRecord, type WelcomeStatus } from '../protocol/welcome.ts';
import { listSites } from './background-client.ts';
import { browser } from './browser.ts';
import { welcomeOnOpen } from './lib/welcome.ts';

/** Whether the panel shows its first-run welcome (a card above the views; it blocks nothing). */
export const welcomeShown = signal(false);

const store = (status: WelcomeStatus) => browser.storage.local.set({ [WELCOME_KEY]: { status } satisfies WelcomeRecord });

/** Decides once per panel load (src/sidepanel/lib/welcome.ts), then follows the record: a dismissal in another panel hides it here too. */
export function trackWelcome(): void {
  void decide().catch(() => undefined);
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[WELCOME_KEY]) welcomeShown.value = readWelcome(changes[WELCOME_KEY].newValue) === 'shown';
  });
}

async function decide(): Promise<void> {
  const status = readWelcome((await browser.storage.local.get(WELCOME_KEY))[WELCOME_KEY]);
  // Only a fresh install asks the worker how many sites the person chose (those still waiting for Chrome's grant count too).
  const sites = status === 'new' ? await listSites() : undefined;
  const allowed = sites ? sites.allowed.length + sites.waiting.length : 0;
  const next = welcomeOnOpen(status, allowed);
  if (next.record) await store(next.record);
  welcomeShown.value = next.show;
}

export async function dismissWelcome(): Promise<void> {
  welcomeShown.value = false;
  await store('dismissed');
}
