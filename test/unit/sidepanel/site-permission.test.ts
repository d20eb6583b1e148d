import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { allowSiteWithChrome, narrowToListedSites } from '../../../src/sidepanel/site-permission.ts';

const allowSite = vi.hoisted(() => vi.fn(async (origin: string) => ({ allowed: [origin], tabs: 1 })));
vi.mock('../../../src/sidepanel/background-client.ts', () => ({ allowSite }));

const SHOP = 'https://shop.example';
let answer: boolean;
let request: ReturnType<typeof vi.fn<() => Promise<boolean>>>;
let remove: ReturnType<typeof vi.fn<() => Promise<boolean>>>;

beforeEach(() => {
  allowSite.mockClear();
  answer = true;
  // Chrome's prompt, answered by the test: what chrome.permissions.request resolves to.
  request = vi.fn<() => Promise<boolean>>(async () => answer);
  remove = vi.fn<() => Promise<boolean>>(async () => true);
  Object.assign(fakeBrowser.permissions, { request, remove });
});

describe('"Allow <site>" in the panel', () => {
  it('asks Chrome for that origin alone, then has the worker add it', async () => {
    expect(await allowSiteWithChrome(SHOP)).toEqual({ kind: 'allowed', tabs: 1 });
    expect(request).toHaveBeenCalledWith({ origins: [`${SHOP}/*`] });
    expect(allowSite).toHaveBeenCalledWith(SHOP);
  });

  it('asks Chrome before anything else: the request is made in the click itself, not after an await', () => {
    void allowSiteWithChrome(SHOP);
    expect(request).toHaveBeenCalledOnce();
  });

  it('a declined prompt: the worker is not asked, the site stays unread', async () => {
    answer = false;
    expect(await allowSiteWithChrome(SHOP)).toEqual({ kind: 'declined' });
    expect(allowSite).not.toHaveBeenCalled();
  });
});

describe('narrowing a broad grant carried over from <all_urls>', () => {
  it('gives every site back first (while it stands Chrome would record nothing for the listed sites), then asks Chrome for them', async () => {
    const calls: string[] = [];
    remove.mockImplementation(async () => (calls.push('remove'), true));
    request.mockImplementation(async () => (calls.push('request'), answer));
    expect(await narrowToListedSites([SHOP, 'http://localhost:4100'])).toBe(true);
    expect(remove).toHaveBeenCalledWith({ origins: ['http://*/*', 'https://*/*'] });
    expect(request).toHaveBeenCalledWith({ origins: [`${SHOP}/*`, 'http://localhost:4100/*'] });
    expect(calls).toEqual(['remove', 'request']);
  });

  it('declined: the answer is false (the listed sites then wait in Settings)', async () => {
    answer = false;
    expect(await narrowToListedSites([SHOP])).toBe(false);
  });

  it('no site listed: every site is given back, nothing asked for', async () => {
    expect(await narrowToListedSites([])).toBe(true);
    expect(request).not.toHaveBeenCalled();
    expect(remove).toHaveBeenCalledOnce();
  });
});
