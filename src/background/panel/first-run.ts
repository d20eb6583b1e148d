import { WELCOME_KEY, type WelcomeRecord } from '../../protocol/welcome.ts';
import { browser } from '../core/browser.ts';

/**
 * A fresh install marks the panel's welcome as due. Not opened from here: Chrome opens an
 * extension's side panel only in response to a user gesture (sidePanel.open in onInstalled is
 * refused, "may only be called in response to a user gesture", on Chromium 156), and a tab opened
 * unasked would be about no web page (the first step, allowing a site, is done next to one). So
 * the welcome waits for the first time the person opens the panel from the toolbar, at its top.
 * An update is no first run: a person who used Steward before is not welcomed again.
 */
export async function markWelcomeDue(reason: string): Promise<void> {
  if (reason !== 'install') return;
  const stored = await browser.storage.local.get(WELCOME_KEY);
  if (stored[WELCOME_KEY] !== undefined) return;
  await browser.storage.local.set({ [WELCOME_KEY]: { status: 'new' } satisfies WelcomeRecord });
}
