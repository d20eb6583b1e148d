import { originPattern } from '../../protocol/site-access.ts';
import { browser } from '../core/browser.ts';
import { broadPatterns } from './site-grants.ts';

/** What SiteAccess needs of chrome.permissions (unit tests pass a fake). */
export interface HostGrants {
  /** Which of these origins Chrome gives Steward access to (a broad grant covers them all). */
  granted(origins: readonly string[]): Promise<Set<string>>;
  /** The broad patterns Chrome still grants (site-grants.ts `broadPatterns`). */
  broad(): Promise<string[]>;
  /** Gives an origin's access back to Chrome; no prompt. */
  release(origin: string): Promise<void>;
  /** Chrome's grants changed: the person allowed or removed a site (chrome://extensions included). */
  onChange(listener: () => void): void;
}

export function chromeHostGrants(): HostGrants {
  return {
    async granted(origins) {
      const checks = await Promise.all(origins.map(async (o) => ((await browser.permissions.contains({ origins: [originPattern(o)] })) ? o : undefined)));
      return new Set(checks.filter((o): o is string => o !== undefined));
    },
    broad: async () => broadPatterns((await browser.permissions.getAll()).origins ?? []),
    release: async (origin) => void (await browser.permissions.remove({ origins: [originPattern(origin)] })),
    onChange(listener) {
      browser.permissions.onAdded.addListener(listener);
      browser.permissions.onRemoved.addListener(listener);
    },
  };
}
