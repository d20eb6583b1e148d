import { SITES_KEY, readSiteAccess } from '../protocol/site-access.ts';
import { emptyEveryDatabase } from '../storage/empty.ts';
import { markWelcomeDue } from './panel/first-run.ts';
import { browser, chromeOnly } from './core/browser.ts';

/**
 * Test builds only (installed as the `stewardReset` test hook): everything Steward keeps goes, as
 * when Chrome uninstalls it, and what a fresh install writes comes back, without reloading the
 * extension (a reinstall costs seconds, most of them Chrome's first read of its managed policy and
 * the person's grants made again). The end-to-end harness stops the worker right after, so its
 * next start has nothing in memory either, and keeps the host access Chrome gives (what a person
 * granted), checking it against what the next test expects.
 */
export async function forgetAsUninstalled(sites: string[]): Promise<void> {
  await Promise.all([browser.storage.session.clear(), browser.alarms.clearAll(), browser.scripting.unregisterContentScripts(), clearNotifications(), clearSessionRules()]);
  const local = Object.keys(await browser.storage.local.get(null));
  await browser.storage.local.remove(local);
  await emptyEveryDatabase();
  // The list the person made earlier (the harness's allowSites; a fresh install has none), then what onInstalled("install") writes.
  if (sites.length > 0) await browser.storage.local.set({ [SITES_KEY]: readSiteAccess({ allowed: sites }) });
  await markWelcomeDue('install');
}

async function clearNotifications(): Promise<void> {
  const shown = await browser.notifications.getAll();
  await Promise.all(Object.keys(shown).map((id) => browser.notifications.clear(id)));
}

/** The fences on agents' tabs (navigation/fence.ts): session rules outlive the worker, not the extension. */
async function clearSessionRules(): Promise<void> {
  const rules = await chromeOnly.declarativeNetRequest.getSessionRules();
  if (rules.length > 0) await chromeOnly.declarativeNetRequest.updateSessionRules({ removeRuleIds: rules.map((r) => r.id) });
}
