import { effect, signal, type ReadonlySignal } from '@preact/signals';
import type { z } from 'zod';
import { t } from '../base/i18n.ts';
import type { ContractConnectRequest, ContractPanelError as PanelErrorSchema, ContractSiteView } from '../protocol/agent-contract.ts';
import type { Data } from '../protocol/channel.ts';
import type { PanelRequests } from '../protocol/panel-channel.ts';
import { connectContract, contractSite, contractSites, disconnectContract, subscribe, type LiveEvent } from './background-client.ts';
import { currentTabId } from './current-tab.ts';

/**
 * Sites that publish an agent contract, as the panel shows them: the current tab's site (what it
 * offers, and the grant Steward holds for it) and every site Steward holds a grant for. Reloaded
 * when the worker says contracts changed, when it restarts, when the tab changes or its page
 * reports again. Connect and disconnect keep their refusal per site, so each view shows its own.
 */

type ContractPanelError = z.infer<typeof PanelErrorSchema>;

type TabContract = { kind: 'loading' } | { kind: 'none' } | { kind: 'site'; site: ContractSiteView } | { kind: 'error'; message: string };
type ContractSitesShown = { kind: 'loading' } | { kind: 'loaded'; sites: ContractSiteView[] } | { kind: 'error'; message: string };

/** The worker's side, as the store needs it (the real one is background-client.ts; tests pass a fake). */
export interface ContractsBackend {
  siteForTab(tabId: number): Promise<Data<PanelRequests, 'panel/contract-site'>>;
  sites(): Promise<Data<PanelRequests, 'panel/contract-sites'>>;
  connect(request: ContractConnectRequest): Promise<Data<PanelRequests, 'panel/contract-connect'>>;
  disconnect(origin: string): Promise<Data<PanelRequests, 'panel/contract-disconnect'>>;
  subscribe(listener: (message: LiveEvent) => void): () => void;
}

/** A refusal the channel itself raised (worker unreachable, contracts not available): same shape as the site's. */
function refusalOf(error: unknown): ContractPanelError {
  const e = error as Error & { code?: unknown };
  return { code: typeof e.code === 'string' ? e.code : 'UNREACHABLE', message: e.message || t('contract_background_silent') };
}

export function createContractsStore(backend: ContractsBackend, tabId: ReadonlySignal<number | undefined>) {
  const tab = signal<TabContract>({ kind: 'loading' });
  const sites = signal<ContractSitesShown>({ kind: 'loading' });
  /** The last connect or disconnect that did not work, by origin; cleared by the next try. */
  const errors = signal<Readonly<Record<string, ContractPanelError>>>({});
  /** Origins with a connect or disconnect under way (their buttons wait). */
  const busy = signal<ReadonlySet<string>>(new Set());
  // Only the newest load may land: a slow answer about the previous tab must not replace this one's.
  let tabLoad = 0;
  let sitesLoad = 0;

  async function reloadTab(): Promise<void> {
    const id = tabId.peek();
    const mine = ++tabLoad;
    if (id === undefined) return void (tab.value = { kind: 'none' });
    try {
      const { site } = await backend.siteForTab(id);
      if (mine === tabLoad) tab.value = site ? { kind: 'site', site } : { kind: 'none' };
    } catch (e) {
      if (mine === tabLoad) tab.value = { kind: 'error', message: t('contract_tab_load_failed', (e as Error).message) };
    }
  }

  async function reloadSites(): Promise<void> {
    const mine = ++sitesLoad;
    try {
      const r = await backend.sites();
      if (mine === sitesLoad) sites.value = { kind: 'loaded', sites: r.sites };
    } catch (e) {
      if (mine === sitesLoad) sites.value = { kind: 'error', message: t('contract_sites_load_failed', (e as Error).message) };
    }
  }

  const reloadAll = () => Promise.all([reloadTab(), reloadSites()]).then(() => undefined);

  function setError(origin: string, error: ContractPanelError | undefined): void {
    const next = { ...errors.value };
    if (error) next[origin] = error;
    else delete next[origin];
    errors.value = next;
  }
  function setBusy(origin: string, on: boolean): void {
    const next = new Set(busy.value);
    if (on) next.add(origin);
    else next.delete(origin);
    busy.value = next;
  }

  /** Runs one connect or disconnect for a site: its refusal is kept for that site, and what is shown is reloaded. */
  async function attempt(origin: string, run: () => Promise<{ ok: true } | { ok: false; error: ContractPanelError }>): Promise<boolean> {
    setBusy(origin, true);
    setError(origin, undefined);
    try {
      const reply = await run();
      if (!reply.ok) setError(origin, reply.error);
      return reply.ok;
    } catch (e) {
      setError(origin, refusalOf(e));
      return false;
    } finally {
      // The worker pushes contracts-changed too; reloading here does not depend on that push arriving first.
      await reloadAll();
      setBusy(origin, false);
    }
  }

  return {
    tab: tab as ReadonlySignal<TabContract>,
    sites: sites as ReadonlySignal<ContractSitesShown>,
    errors: errors as ReadonlySignal<Readonly<Record<string, ContractPanelError>>>,
    busy: busy as ReadonlySignal<ReadonlySet<string>>,
    connect: (request: ContractConnectRequest) => attempt(request.origin, () => backend.connect(request)),
    disconnect: (origin: string) => attempt(origin, () => backend.disconnect(origin)),
    /** Starts following the worker and the current tab; returns how to stop. */
    start(): () => void {
      const stopTab = effect(() => {
        void tabId.value;
        tab.value = { kind: 'loading' };
        void reloadTab();
      });
      void reloadSites();
      const unsubscribe = backend.subscribe((m) => {
        if (m.type === 'panel/contracts-changed' || m.type === 'panel/reconnected' || m.type === 'panel/sites-changed') void reloadAll();
        // The tab's page reported again (a navigation): it may offer another contract, or none.
        else if (m.type === 'panel/tools-changed' && m.tabId === tabId.peek()) void reloadTab();
      });
      return () => {
        stopTab();
        unsubscribe();
      };
    },
  };
}

const liveBackend: ContractsBackend = {
  siteForTab: contractSite,
  sites: contractSites,
  connect: connectContract,
  disconnect: disconnectContract,
  subscribe,
};

/** The panel's one store, started by the first view that shows contracts and kept while the panel is open. */
export const contracts = createContractsStore(liveBackend, currentTabId);
let started = false;
export function ensureContractsTracked(): void {
  if (started) return;
  started = true;
  contracts.start();
}
