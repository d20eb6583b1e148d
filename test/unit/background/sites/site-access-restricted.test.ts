import { afterEach, describe, expect, it, vi } from 'vitest';
import { SiteAccess } from '../../../../src/background/sites/site-access.ts';

const FILES = { mainWithPolyfill: 'assets/main-world.iife.js', mainNetworkOnly: 'assets/main-network.iife.js', isolated: 'assets/isolated.iife.js' };

/** Just the chrome.* that SiteAccess touches at start: a stored list of sites and Chrome's registrations. */
function fakeChrome(registered: Array<{ id: string }>) {
  const scripting = {
    getRegisteredContentScripts: vi.fn(async () => registered),
    registerContentScripts: vi.fn(async (plan: Array<{ id: string; matches?: string[] }>) => void registered.splice(0, registered.length, ...plan)),
    unregisterContentScripts: vi.fn(async () => void registered.splice(0)),
    updateContentScripts: vi.fn(async () => undefined),
  };
  vi.stubGlobal('chrome', {
    storage: { local: { get: vi.fn(async () => ({ 'steward.sites': { allowed: ['https://shop.example'] } })) }, onChanged: { addListener: vi.fn() } },
    scripting,
  });
  return scripting;
}

afterEach(() => vi.unstubAllGlobals());

describe('page scripts wait for chrome.storage to be closed to content scripts', () => {
  it('registers the allowed sites once storage is restricted', async () => {
    const scripting = fakeChrome([]);
    await new SiteAccess(FILES, undefined, Promise.resolve()).ready;
    expect(scripting.registerContentScripts).toHaveBeenCalledOnce();
    expect(scripting.registerContentScripts.mock.calls[0]![0].flatMap((s) => s.matches ?? [])).toContain('https://shop.example/*');
  });

  it('fails closed: when storage cannot be restricted, no page gets a script, and earlier registrations are removed', async () => {
    const scripting = fakeChrome([{ id: 'steward-main' }, { id: 'steward-isolated' }]);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await new SiteAccess(FILES, undefined, Promise.reject(new Error('setAccessLevel is not supported'))).ready;
    expect(scripting.registerContentScripts).not.toHaveBeenCalled();
    expect(scripting.unregisterContentScripts).toHaveBeenCalledWith({ ids: ['steward-main', 'steward-isolated'] });
  });
});
