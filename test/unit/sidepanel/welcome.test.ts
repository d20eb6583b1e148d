import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { WELCOME_KEY, readWelcome } from '../../../src/protocol/welcome.ts';
import { welcomeOnOpen } from '../../../src/sidepanel/lib/welcome.ts';

const listSites = vi.hoisted(() => vi.fn<() => Promise<{ allowed: string[]; waiting: string[] }>>());
vi.mock('../../../src/sidepanel/background-client.ts', () => ({ listSites }));
const { dismissWelcome, trackWelcome, welcomeShown } = await import('../../../src/sidepanel/welcome-store.ts');

describe('when the panel shows its first-run welcome', () => {
  it('a fresh install with no site allowed yet: shown, and recorded so that it stays until dismissed', () => {
    expect(welcomeOnOpen('new', 0)).toEqual({ show: true, record: 'shown' });
    // Allowing the first site (step one) does not take the other steps away.
    expect(welcomeOnOpen('shown', 3)).toEqual({ show: true });
  });

  it('a fresh install that already has sites (npm start allowed its demo sites): nothing to welcome to, and never later either', () => {
    expect(welcomeOnOpen('new', 2)).toEqual({ show: false, record: 'skipped' });
    expect(welcomeOnOpen('skipped', 0)).toEqual({ show: false });
  });

  it('dismissed, or no record at all (an update from a version before the welcome): not shown', () => {
    expect(welcomeOnOpen('dismissed', 0)).toEqual({ show: false });
    expect(welcomeOnOpen(undefined, 0)).toEqual({ show: false });
  });

  it('reads only a well-formed record', () => {
    expect(readWelcome({ status: 'shown' })).toBe('shown');
    for (const bad of [undefined, null, 'shown', { status: 'open' }, { status: true }, []]) expect(readWelcome(bad)).toBeUndefined();
  });
});

describe('the panel’s welcome, kept in the local storage area', () => {
  beforeEach(() => {
    welcomeShown.value = false;
    listSites.mockReset();
  });

  it('on a fresh install with no site allowed, shows it, remembers that, and hides it for good once dismissed', async () => {
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'new' } });
    listSites.mockResolvedValue({ allowed: [], waiting: [] });
    trackWelcome();
    await vi.waitFor(() => expect(welcomeShown.value).toBe(true));
    expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'shown' } });

    await dismissWelcome();
    expect(welcomeShown.value).toBe(false);
    expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'dismissed' } });
  });

  it('with sites already allowed, records that it was skipped and shows nothing', async () => {
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'new' } });
    listSites.mockResolvedValue({ allowed: ['http://127.0.0.1:4100'], waiting: [] });
    trackWelcome();
    await vi.waitFor(async () => expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'skipped' } }));
    expect(welcomeShown.value).toBe(false);
  });

  it('with sites listed but still waiting for Chrome’s grant, the person has chosen already: skipped too', async () => {
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'new' } });
    listSites.mockResolvedValue({ allowed: [], waiting: ['http://127.0.0.1:4100'] });
    trackWelcome();
    await vi.waitFor(async () => expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'skipped' } }));
    expect(welcomeShown.value).toBe(false);
  });

  it('a dismissal in another panel hides it here too', async () => {
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'shown' } });
    trackWelcome();
    await vi.waitFor(() => expect(welcomeShown.value).toBe(true));
    expect(listSites).not.toHaveBeenCalled();
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'dismissed' } });
    expect(welcomeShown.value).toBe(false);
  });
});
