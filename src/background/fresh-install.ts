import { SITES_KEY, readSiteAccess } from '../protocol/site-access.ts';
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
  await Promise.all((await indexedDB.databases()).flatMap((d) => (d.name ? [emptyDatabase(d.name)] : [])));
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

/**
 * Every store emptied through a connection of its own: the worker's connection stays open, so a
 * deleteDatabase would wait for it (blocked) until the worker stops.
 */
function emptyDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onerror = () => reject(request.error ?? new Error(`could not open ${name}`));
    request.onsuccess = () => {
      const db = request.result;
      const stores = [...db.objectStoreNames];
      if (stores.length === 0) return (db.close(), resolve());
      const tx = db.transaction(stores, 'readwrite');
      for (const store of stores) tx.objectStore(store).clear();
      tx.oncomplete = () => (db.close(), resolve());
      tx.onerror = () => (db.close(), reject(tx.error ?? new Error(`could not empty ${name}`)));
    };
  });
}
