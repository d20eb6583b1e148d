import { describe, expect, it } from 'vitest';
import { browser } from '../../../src/background/browser.ts';

describe('the background’s browser', () => {
  it('is the in-memory fake in unit tests, so Chrome-facing adapters can be driven directly', async () => {
    await browser.storage.local.set({ probe: 1 });
    expect(await browser.storage.local.get('probe')).toEqual({ probe: 1 });
  });
});
