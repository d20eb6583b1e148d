import type { WelcomeStatus } from '../../protocol/welcome.ts';

/**
 * What the panel does when it opens: show the welcome or not, and what to record. A profile with
 * no record (Steward updated from a version before the welcome, or storage cleared) gets none; a
 * fresh install gets it unless a site was already allowed before the panel first opened (`npm
 * start` allows its demo sites and sets its demo model). Once shown, it stays until dismissed, so
 * allowing the first site does not take the other steps away.
 */
export function welcomeOnOpen(status: WelcomeStatus | undefined, sitesAllowed: number): { show: boolean; record?: WelcomeStatus } {
  if (status === 'shown') return { show: true };
  if (status !== 'new') return { show: false };
  return sitesAllowed > 0 ? { show: false, record: 'skipped' } : { show: true, record: 'shown' };
}
