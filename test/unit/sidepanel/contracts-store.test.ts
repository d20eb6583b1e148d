import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import { ContractSiteView, type ContractConnectRequest } from '../../../src/protocol/agent-contract.ts';
import type { LiveEvent } from '../../../src/sidepanel/background-client.ts';
import { createContractsStore, type ContractsBackend } from '../../../src/sidepanel/contracts-store.ts';

const SHOP = 'http://localhost:4100';
const CLINIC = 'http://localhost:4200';

const site = (origin: string, connection: ContractSiteView['connection'] = { status: 'none' }) =>
  ContractSiteView.parse({
    origin,
    site_name: origin === SHOP ? 'Larkspur' : 'Clinic',
    contract_url: `${origin}/agent/v1/contract`,
    offered_scopes: [{ scope: 'orders:read', title: 'See orders' }],
    resource_types: ['order'],
    has_payment_actions: false,
    max_token_ttl_s: 86_400,
    connection,
  });
const connected = (origin: string) =>
  site(origin, {
    status: 'connected',
    token_id: 'tok_1',
    scopes: ['orders:read'],
    resource_scope: ['order:*'],
    payment: false,
    expires_at: '2026-12-02T10:00:00.000Z',
    granted_by: 'Jordan Lee',
    key_thumbprint: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
  });
const request: ContractConnectRequest = { origin: SHOP, scopes: ['orders:read'], resource_scope: ['order:*'], payment: false, expires_in_s: 3600 };

/** A worker in memory: which site each tab shows, the grants it holds, and answers the test can hold back. */
function fakeWorker() {
  const tabs = new Map<number, string>([
    [1, SHOP],
    [2, CLINIC],
  ]);
  const held = new Map<string, ContractSiteView>();
  const listeners = new Set<(m: LiveEvent) => void>();
  const calls: string[] = [];
  const gates = new Map<number, Promise<void>>();
  let refuseConnect: { code: string; message: string } | undefined;
  let unreachable = false;
  const view = (origin: string) => held.get(origin) ?? site(origin);
  const backend: ContractsBackend = {
    async siteForTab(tabId) {
      calls.push(`site ${tabId}`);
      await gates.get(tabId);
      const origin = tabs.get(tabId);
      return { site: origin ? view(origin) : null };
    },
    async sites() {
      calls.push('sites');
      return { sites: [...held.values()] };
    },
    async connect(r) {
      calls.push(`connect ${r.origin}`);
      if (unreachable) throw Object.assign(new Error('Steward’s background could not be reached'), { code: 'UNREACHABLE' });
      if (refuseConnect) return { ok: false, error: refuseConnect };
      held.set(r.origin, connected(r.origin));
      return { ok: true, site: view(r.origin) };
    },
    async disconnect(origin) {
      calls.push(`disconnect ${origin}`);
      held.delete(origin);
      return { ok: true };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return {
    backend,
    tabs,
    held,
    calls,
    listeners,
    push: (m: LiveEvent) => [...listeners].forEach((l) => l(m)),
    /** Holds back the answers about one tab until released. */
    hold: (tabId: number) => {
      let open!: () => void;
      gates.set(tabId, new Promise((r) => (open = r)));
      return () => (gates.delete(tabId), open());
    },
    refuse: (e: { code: string; message: string } | undefined) => (refuseConnect = e),
    cutOff: () => (unreachable = true),
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('the panel’s contracts store', () => {
  it('shows the tab’s site and the held grants, and follows the tab', async () => {
    const w = fakeWorker();
    const tabId = signal<number | undefined>(1);
    const store = createContractsStore(w.backend, tabId);
    const stop = store.start();
    await settle();
    expect(store.tab.value).toEqual({ kind: 'site', site: site(SHOP) });
    expect(store.sites.value).toEqual({ kind: 'loaded', sites: [] });

    tabId.value = 2;
    expect(store.tab.value.kind).toBe('loading');
    await settle();
    expect(store.tab.value).toMatchObject({ kind: 'site', site: { origin: CLINIC } });

    // A tab on a site that offers no contract, and no tab at all.
    tabId.value = 3;
    await settle();
    expect(store.tab.value).toEqual({ kind: 'none' });
    tabId.value = undefined;
    await settle();
    expect(store.tab.value).toEqual({ kind: 'none' });
    stop();
    expect(w.listeners.size).toBe(0);
  });

  it('keeps the newest tab’s answer when an older one arrives late', async () => {
    const w = fakeWorker();
    const tabId = signal<number | undefined>(1);
    const store = createContractsStore(w.backend, tabId);
    const releaseFirst = w.hold(1);
    store.start();
    tabId.value = 2;
    await settle();
    expect(store.tab.value).toMatchObject({ kind: 'site', site: { origin: CLINIC } });
    // The answer about tab 1 comes last; it must not replace tab 2's.
    releaseFirst();
    await settle();
    expect(store.tab.value).toMatchObject({ kind: 'site', site: { origin: CLINIC } });
    expect(w.calls.filter((c) => c.startsWith('site '))).toEqual(['site 1', 'site 2']);
  });

  it('connects: the tab and the list show the grant at once, without waiting for the worker’s push', async () => {
    const w = fakeWorker();
    const store = createContractsStore(w.backend, signal(1));
    store.start();
    await settle();
    expect(await store.connect(request)).toBe(true);
    expect(store.tab.value).toEqual({ kind: 'site', site: connected(SHOP) });
    expect(store.sites.value).toEqual({ kind: 'loaded', sites: [connected(SHOP)] });
    expect(store.errors.value).toEqual({});
    expect(store.busy.value.size).toBe(0);

    expect(await store.disconnect(SHOP)).toBe(true);
    expect(store.tab.value).toEqual({ kind: 'site', site: site(SHOP) });
    expect(store.sites.value).toEqual({ kind: 'loaded', sites: [] });
  });

  it('keeps a refusal for its own site until the next try, and marks the site busy meanwhile', async () => {
    const w = fakeWorker();
    const store = createContractsStore(w.backend, signal(1));
    store.start();
    await settle();
    w.refuse({ code: 'login_required', message: 'Sign in to Larkspur first.' });
    const trying = store.connect(request);
    expect(store.busy.value.has(SHOP)).toBe(true);
    expect(await trying).toBe(false);
    expect(store.busy.value.has(SHOP)).toBe(false);
    expect(store.errors.value).toEqual({ [SHOP]: { code: 'login_required', message: 'Sign in to Larkspur first.' } });
    expect(store.tab.value).toEqual({ kind: 'site', site: site(SHOP) });

    w.refuse(undefined);
    expect(await store.connect(request)).toBe(true);
    expect(store.errors.value).toEqual({});
  });

  it('reports a worker it cannot reach as a refusal with the channel’s code', async () => {
    const w = fakeWorker();
    const store = createContractsStore(w.backend, signal(1));
    store.start();
    await settle();
    w.cutOff();
    expect(await store.connect(request)).toBe(false);
    expect(store.errors.value[SHOP]).toEqual({ code: 'UNREACHABLE', message: 'Steward’s background could not be reached' });
  });

  it('reloads on contracts-changed, on a worker restart, and when the tab’s page reports again; not for other tabs', async () => {
    const w = fakeWorker();
    const store = createContractsStore(w.backend, signal(1));
    store.start();
    await settle();
    // Connected elsewhere (another panel): the push brings it here.
    w.held.set(SHOP, connected(SHOP));
    w.push({ type: 'panel/contracts-changed' });
    await settle();
    expect(store.tab.value).toEqual({ kind: 'site', site: connected(SHOP) });
    expect(store.sites.value).toEqual({ kind: 'loaded', sites: [connected(SHOP)] });

    w.calls.length = 0;
    w.push({ type: 'panel/tools-changed', tabId: 2 });
    w.push({ type: 'panel/audit-changed' });
    await settle();
    expect(w.calls).toEqual([]);
    w.push({ type: 'panel/tools-changed', tabId: 1 });
    w.push({ type: 'panel/reconnected' });
    await settle();
    expect(w.calls).toEqual(['site 1', 'site 1', 'sites']);
  });

  it('says when the worker cannot answer what the site offers', async () => {
    const w = fakeWorker();
    w.backend.siteForTab = () => Promise.reject(new Error('no answer'));
    w.backend.sites = () => Promise.reject(new Error('no answer'));
    const store = createContractsStore(w.backend, signal(1));
    store.start();
    await settle();
    expect(store.tab.value).toEqual({ kind: 'error', message: 'Could not ask about this site’s contract: no answer' });
    expect(store.sites.value).toEqual({ kind: 'error', message: 'Could not list the connected sites: no answer' });
  });
});
