import { afterEach, describe, expect, it, vi } from 'vitest';
import { chromeOnly } from '../../../../src/background/core/browser.ts';
import { restrictStorageToExtension } from '../../../../src/background/core/storage-access.ts';

type Level = 'TRUSTED_CONTEXTS' | 'TRUSTED_AND_UNTRUSTED_CONTEXTS';

/** storage.setAccessLevel is Chrome's; fake-browser leaves it out. Each area keeps its level here (`chromeOnly` is the fake). */
function stubAccessLevels(fail?: Error) {
  const levels: { local?: Level; session?: Level } = {};
  for (const area of ['local', 'session'] as const) {
    vi.spyOn(chromeOnly.storage[area], 'setAccessLevel').mockImplementation(async ({ accessLevel }) => {
      if (fail) throw fail;
      levels[area] = accessLevel;
    });
  }
  return levels;
}

afterEach(() => vi.restoreAllMocks());

describe('restrictStorageToExtension', () => {
  it('closes both the local and the session area to content scripts', async () => {
    const levels = stubAccessLevels();
    await restrictStorageToExtension();
    expect(levels).toEqual({ local: 'TRUSTED_CONTEXTS', session: 'TRUSTED_CONTEXTS' });
  });

  it('rejects when the browser cannot restrict them, so page scripts are never registered (site-access.ts)', async () => {
    stubAccessLevels(new Error('setAccessLevel is not supported'));
    await expect(restrictStorageToExtension()).rejects.toThrow('not supported');
  });
});
