import { fakeBrowser } from '@webext-core/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SiteAccess } from '../../../../src/background/sites/site-access.ts';
import { SETTINGS_KEY } from '../../../../src/protocol/settings.ts';
import { SITES_KEY } from '../../../../src/protocol/site-access.ts';
import { FakeGrants } from './fake-grants.ts';
import { parsePolicy, type ParsedPolicy } from '../../../../src/protocol/managed-policy.ts';
import { FakeScripting, queryTabsByPattern } from './fake-scripting.ts';

/** Names that outlive a version (a storage key, ids of scripts registered across sessions): pinned here, not imported. */
const WEBMCP_KEY = 'steward.webmcp';
const MAIN_SCRIPT_ID = 'steward-main';
const ISOLATED_SCRIPT_ID = 'steward-isolated';

const FILES = { mainWithPolyfill: 'assets/main-world.iife.js', mainNetworkOnly: 'assets/main-network.iife.js', isolated: 'assets/isolated.iife.js' };
const SHOP = 'https://shop.example';
const CLINIC = 'https://clinic.example';
const UA = 'Mozilla/5.0 Chrome/156.0.0.0';

let scripting: FakeScripting;
/** Chrome grants both demo sites unless a test says otherwise (the person answered Chrome's prompt). */
let grants: FakeGrants;

beforeEach(() => {
  scripting = new FakeScripting().install();
  grants = new FakeGrants([SHOP, CLINIC]);
  queryTabsByPattern();
  vi.stubGlobal('navigator', { userAgent: UA });
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const mainFile = () => scripting.registered.find((s) => s.id === MAIN_SCRIPT_ID)?.js;
const matches = () => scripting.registered.map((s) => [s.id, [...(s.matches ?? [])].sort()]);

async function openTab(url: string): Promise<number> {
  return (await fakeBrowser.tabs.create({ url })).id!;
}

async function started(hooks: { onSitesLost?: (origins: string[]) => void; onChanged?: () => void } = {}): Promise<SiteAccess> {
  const access = new SiteAccess({ files: FILES, grants, ...hooks });
  await access.ready;
  return access;
}

describe('SiteAccess: allowing a site', () => {
  it('stores the site, registers both worlds for it, and starts the isolated world in its open pages', async () => {
    const shopTab = await openTab(`${SHOP}/orders/ORD-1024`);
    const otherTab = await openTab(`${CLINIC}/`);
    const access = await started();

    expect(await access.allow(SHOP)).toEqual({ allowed: [SHOP], tabs: 1 });

    expect(await fakeBrowser.storage.local.get(SITES_KEY)).toEqual({ [SITES_KEY]: { allowed: [SHOP] } });
    expect(scripting.registered).toEqual([
      { id: MAIN_SCRIPT_ID, js: [FILES.mainWithPolyfill], world: 'MAIN', matches: [`${SHOP}/*`], runAt: 'document_start', allFrames: true, persistAcrossSessions: true },
      { id: ISOLATED_SCRIPT_ID, js: [FILES.isolated], world: 'ISOLATED', matches: [`${SHOP}/*`], runAt: 'document_start', allFrames: true, persistAcrossSessions: true },
    ]);
    expect(scripting.injected).toEqual([{ target: { tabId: shopTab, frameIds: [0] }, files: [FILES.isolated] }]);
    expect(scripting.injected.map((i) => i.target.tabId)).not.toContain(otherTab);
  });

  it('counts only the pages Chrome let it start in', async () => {
    scripting.blocked.add(await openTab(`${SHOP}/a`));
    await openTab(`${SHOP}/b`);
    const access = await started();
    expect(await access.allow(SHOP)).toEqual({ allowed: [SHOP], tabs: 1 });
  });

  it('a second site widens the registered scripts in place: no moment without them', async () => {
    const access = await started();
    await access.allow(SHOP);
    await access.allow(CLINIC);
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${CLINIC}/*`, `${SHOP}/*`]],
      [ISOLATED_SCRIPT_ID, [`${CLINIC}/*`, `${SHOP}/*`]],
    ]);
    expect(scripting.history.slice(1).every((state) => state.length === 2)).toBe(true);
  });

  it('reads the stored list at start and registers it; a registration already in line is left alone', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP, 'not an origin'] } });
    const access = await started();
    expect(access.list()).toEqual([SHOP]);
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${SHOP}/*`]],
      [ISOLATED_SCRIPT_ID, [`${SHOP}/*`]],
    ]);
    const changes = scripting.history.length;
    await started();
    expect(scripting.history).toHaveLength(changes);
  });
});

describe('SiteAccess: a site Chrome has not granted', () => {
  it('is not added: the side panel asks Chrome first, and a declined prompt leaves the list as it was', async () => {
    grants = new FakeGrants([CLINIC]);
    const access = await started();
    await expect(access.allow(SHOP)).rejects.toThrow(`Chrome has not given Steward access to ${SHOP}`);
    expect(await fakeBrowser.storage.local.get(SITES_KEY)).toEqual({});
    expect(scripting.registered).toEqual([]);
  });
});

describe('SiteAccess: removing a site', () => {
  it('unregisters the scripts when no site is left, gives the access back to Chrome, and names the site whose pages are forgotten', async () => {
    await openTab(`${SHOP}/orders/ORD-1024`);
    await openTab(`${CLINIC}/`);
    const lost: string[][] = [];
    const access = await started({ onSitesLost: (origins) => lost.push(origins) });
    await access.allow(SHOP);

    expect(await access.remove(SHOP)).toEqual({ allowed: [], tabs: 1 });

    expect(await fakeBrowser.storage.local.get(SITES_KEY)).toEqual({ [SITES_KEY]: { allowed: [] } });
    expect(scripting.registered).toEqual([]);
    expect(grants.released).toEqual([SHOP]);
    expect(lost).toEqual([[SHOP]]);
  });
});

describe("SiteAccess: Chrome's grants decide with the list", () => {
  it('access taken back in chrome://extensions: the site stops being read at once and waits for the person', async () => {
    const shopTab = await openTab(`${SHOP}/orders/ORD-1024`);
    const lost: string[][] = [];
    let changes = 0;
    const access = await started({ onSitesLost: (origins) => lost.push(origins), onChanged: () => changes++ });
    await access.allow(SHOP);
    await access.allow(CLINIC);
    changes = 0;

    grants.revoke(SHOP);

    await vi.waitFor(() => expect(access.overview()).toEqual({ allowed: [CLINIC], waiting: [SHOP], refused_by_policy: [], broad: false }));
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${CLINIC}/*`]],
      [ISOLATED_SCRIPT_ID, [`${CLINIC}/*`]],
    ]);
    expect(lost).toEqual([[SHOP]]);
    expect(changes).toBe(1);
    expect(access.isAllowed(SHOP)).toBe(false);
    expect(access.list()).toEqual([CLINIC]);
    expect(await access.gate(shopTab)).toEqual({ code: 'SITE_NOT_ALLOWED', message: expect.stringContaining(`Chrome no longer gives Steward access to ${SHOP}`), retryable: false });
    expect(await access.tabStatus(shopTab, () => true)).toEqual({ tabId: shopTab, origin: SHOP, allowed: false, waiting: true, observing: false });
    // The person's list still holds it: allowing it again (Chrome asks) brings it back.
    expect(await fakeBrowser.storage.local.get(SITES_KEY)).toEqual({ [SITES_KEY]: { allowed: [SHOP, CLINIC] } });

    grants.grant(SHOP);
    await vi.waitFor(() => expect(access.overview()).toEqual({ allowed: [CLINIC, SHOP], waiting: [], refused_by_policy: [], broad: false }));
    expect(scripting.registered.flatMap((s) => s.matches ?? [])).toContain(`${SHOP}/*`);
  });

  it('at a start (after an update, or access removed while Steward was off): listed sites without a grant get no script', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP, CLINIC] } });
    grants = new FakeGrants([CLINIC]);
    const access = await started();
    expect(access.overview()).toEqual({ allowed: [CLINIC], waiting: [SHOP], refused_by_policy: [], broad: false });
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${CLINIC}/*`]],
      [ISOLATED_SCRIPT_ID, [`${CLINIC}/*`]],
    ]);
  });

  it('a broad grant carried over from a version with <all_urls> keeps the listed sites working, and reads no other site', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP] } });
    grants = new FakeGrants();
    grants.broadGrant = true;
    const clinicTab = await openTab(`${CLINIC}/`);
    const access = await started();
    expect(access.overview()).toEqual({ allowed: [SHOP], waiting: [], refused_by_policy: [], broad: true });
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${SHOP}/*`]],
      [ISOLATED_SCRIPT_ID, [`${SHOP}/*`]],
    ]);
    expect(await access.gate(clinicTab)).toMatchObject({ code: 'SITE_NOT_ALLOWED' });
  });
});

describe('SiteAccess: the main-world script follows the polyfill setting and native WebMCP', () => {
  it('a settings change written by the side panel switches the main world to network-only', async () => {
    const access = await started();
    await access.allow(SHOP);
    expect(mainFile()).toEqual([FILES.mainWithPolyfill]);
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { polyfill_enabled: false } });
    await vi.waitFor(() => expect(mainFile()).toEqual([FILES.mainNetworkOnly]));
  });

  it('a top frame reporting native WebMCP drops the polyfill for this browser version; one finding none brings it back', async () => {
    const access = await started();
    await access.allow(SHOP);

    await access.noteWebMcpApi('native', true);
    expect(await fakeBrowser.storage.local.get(WEBMCP_KEY)).toEqual({ [WEBMCP_KEY]: { native: true, browser: UA } });
    expect(mainFile()).toEqual([FILES.mainNetworkOnly]);

    await access.noteWebMcpApi('none', false);
    expect(mainFile()).toEqual([FILES.mainNetworkOnly]);

    await access.noteWebMcpApi('none', true);
    expect(await fakeBrowser.storage.local.get(WEBMCP_KEY)).toEqual({ [WEBMCP_KEY]: { native: false, browser: UA } });
    expect(mainFile()).toEqual([FILES.mainWithPolyfill]);
  });

  it('a native report from another browser version does not count', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP] }, [WEBMCP_KEY]: { native: true, browser: 'Chrome/155' } });
    await started();
    expect(mainFile()).toEqual([FILES.mainWithPolyfill]);
  });
});

describe('SiteAccess: the gate in front of every message to a tab', () => {
  it('lets messages through only to pages of allowed sites', async () => {
    const shopTab = await openTab(`${SHOP}/orders/ORD-1024`);
    const clinicTab = await openTab(`${CLINIC}/`);
    const newTab = await openTab('chrome://newtab/');
    const access = await started();
    await access.allow(SHOP);

    expect(await access.gate(shopTab)).toBeUndefined();
    expect(await access.gate(clinicTab)).toEqual({ code: 'SITE_NOT_ALLOWED', message: expect.stringContaining(`not allowed on ${CLINIC}`), retryable: false });
    expect(await access.gate(newTab)).toEqual({ code: 'SITE_NOT_ALLOWED', message: expect.stringContaining('not a web page'), retryable: false });
    // No such tab: nothing to protect; the message itself fails.
    expect(await access.gate(999)).toBeUndefined();
  });

  it('tells the panel how a tab stands', async () => {
    const shopTab = await openTab(`${SHOP}/orders/ORD-1024`);
    const newTab = await openTab('chrome://newtab/');
    const access = await started();
    await access.allow(SHOP);
    expect(await access.tabStatus(shopTab, () => true)).toEqual({ tabId: shopTab, origin: SHOP, allowed: true, observing: true });
    expect(await access.tabStatus(shopTab, () => false)).toMatchObject({ allowed: true, observing: false });
    expect(await access.tabStatus(newTab, () => true)).toEqual({ tabId: newTab, allowed: false, observing: false });
  });
});

describe('page scripts wait for chrome.storage to be closed to content scripts', () => {
  beforeEach(() => fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP] } }));

  it('registers the allowed sites once storage is restricted', async () => {
    const register = vi.spyOn(fakeBrowser.scripting, 'registerContentScripts');
    await new SiteAccess({ files: FILES, grants, storageRestricted: Promise.resolve() }).ready;
    expect(register).toHaveBeenCalledOnce();
    expect(scripting.registered.flatMap((s) => s.matches ?? [])).toContain(`${SHOP}/*`);
  });

  it('fails closed: when storage cannot be restricted, no page gets a script, and earlier registrations are removed', async () => {
    scripting.registered = [
      { id: MAIN_SCRIPT_ID, js: [FILES.mainWithPolyfill], matches: [`${SHOP}/*`] },
      { id: ISOLATED_SCRIPT_ID, js: [FILES.isolated], matches: [`${SHOP}/*`] },
    ];
    const unregister = vi.spyOn(fakeBrowser.scripting, 'unregisterContentScripts');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await new SiteAccess({ files: FILES, grants, storageRestricted: Promise.reject(new Error('setAccessLevel is not supported')) }).ready;
    expect(scripting.history.some((state) => state.length > 0)).toBe(false);
    expect(unregister).toHaveBeenCalledWith({ ids: [MAIN_SCRIPT_ID, ISOLATED_SCRIPT_ID] });
    expect(scripting.registered).toEqual([]);
  });
});

/** A stand-in for the worker's ManagedPolicy: the policy now, and its change as Chrome would report it. */
function fakePolicy(raw: unknown) {
  let parsed = parsePolicy(raw);
  const listeners: Array<(p: ParsedPolicy) => void> = [];
  return {
    ready: Promise.resolve(),
    current: () => parsed.policy,
    onChange: (fn: (p: ParsedPolicy) => void) => void listeners.push(fn),
    set(next: unknown) {
      parsed = parsePolicy(next);
      for (const fn of listeners) fn(parsed);
    },
  };
}

describe("SiteAccess: the organisation's policy outranks the person's list", () => {
  it('a site the policy blocks gets no script and no message, though the person allowed it; lifting the block brings it back', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [SHOP, CLINIC] } });
    const tab = await openTab(`${SHOP}/orders/ORD-1024`);
    const policy = fakePolicy({ blockedSites: [SHOP] });
    const lost: string[][] = [];
    const access = new SiteAccess({ files: FILES, grants, policy, onSitesLost: (o) => lost.push(o) });
    await access.ready;
    expect(access.overview()).toEqual({ allowed: [CLINIC], waiting: [], refused_by_policy: [SHOP], broad: false });
    expect(matches()).toEqual([
      [MAIN_SCRIPT_ID, [`${CLINIC}/*`]],
      [ISOLATED_SCRIPT_ID, [`${CLINIC}/*`]],
    ]);
    expect(await access.gate(tab)).toMatchObject({ code: 'SITE_NOT_ALLOWED', message: expect.stringContaining('Your organisation blocks Steward on https://shop.example') });
    expect(await access.tabStatus(tab, () => false)).toMatchObject({ allowed: false, policy: 'blocked' });
    await expect(access.allow(SHOP)).rejects.toThrow('Your organisation blocks Steward');

    policy.set({});
    await vi.waitFor(() => expect(access.list()).toEqual([CLINIC, SHOP]));
    expect(await access.gate(tab)).toBeUndefined();

    policy.set({ allowedSites: [CLINIC] });
    await vi.waitFor(() => expect(access.list()).toEqual([CLINIC]));
    expect(lost).toEqual([[SHOP]]);
    expect(await access.tabStatus(tab, () => false)).toMatchObject({ allowed: false, policy: 'not_allowed' });
  });

  it('an allow list never adds a site the person did not allow', async () => {
    await fakeBrowser.storage.local.set({ [SITES_KEY]: { allowed: [CLINIC] } });
    const access = new SiteAccess({ files: FILES, grants, policy: fakePolicy({ allowedSites: [SHOP, CLINIC] }) });
    await access.ready;
    expect(access.list()).toEqual([CLINIC]);
  });
});
