import { z } from 'zod';

/**
 * Where the side panel's first-run welcome stands, in chrome.storage.local under `WELCOME_KEY`.
 * `new`: Steward was just installed (the service worker's onInstalled), the panel has not opened
 * yet. `shown`: the panel showed the welcome, and keeps showing it until the person dismisses it.
 * `dismissed`: they did. `skipped`: when the panel first opened, Steward had already been set up
 * (sites allowed by `npm start`, or carried over), so there was nothing to welcome them to.
 */
export const WELCOME_KEY = 'steward.welcome';

export const WelcomeStatus = z.enum(['new', 'shown', 'dismissed', 'skipped']);
export type WelcomeStatus = z.infer<typeof WelcomeStatus>;

export const WelcomeRecord = z.object({ status: WelcomeStatus });
export type WelcomeRecord = z.infer<typeof WelcomeRecord>;

/** Whatever is stored → the status, or undefined (nothing, or something unreadable: no welcome). */
export function readWelcome(raw: unknown): WelcomeStatus | undefined {
  const r = WelcomeRecord.safeParse(raw);
  return r.success ? r.data.status : undefined;
}
