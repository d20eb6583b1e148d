import { useEffect, useState } from 'preact/hooks';
import type { SitesResponse } from '../protocol/panel-channel.ts';
import { listSites, subscribe } from './background-client.ts';
import { currentTabId } from './current-tab.ts';

/**
 * The allowed sites and how the current tab stands (origin, title, allowed, observed), kept live:
 * reloaded when the list changes, when the tab's page reports, and when the tab changes.
 */
export function useSiteStatus(): { sites: SitesResponse | undefined; error: string; reload: () => void } {
  const tabId = currentTabId.value;
  const [sites, setSites] = useState<SitesResponse | undefined>(undefined);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let alive = true;
    const load = () =>
      listSites(tabId).then(
        (r) => alive && (setSites(r), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load();
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/sites-changed' || m.type === 'panel/reconnected' || (m.type === 'panel/tools-changed' && m.tabId === tabId)) void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [tabId, generation]);
  return { sites, error, reload: () => setGeneration((g) => g + 1) };
}
