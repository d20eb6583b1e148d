import { useSiteStatus } from './use-site-status.ts';

/** The current tab's origin; undefined on pages no extension may read (chrome://, the Web Store, …). */
export function useCurrentOrigin(): string | undefined {
  return useSiteStatus().sites?.tab?.origin;
}
