import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it } from 'vitest';
import { markWelcomeDue } from '../../../../src/background/panel/first-run.ts';
import { WELCOME_KEY } from '../../../../src/protocol/welcome.ts';

describe('the first run', () => {
  it('a fresh install marks the panel’s welcome as due', async () => {
    await markWelcomeDue('install');
    expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'new' } });
  });

  it('an update, or a browser update, welcomes no one', async () => {
    await markWelcomeDue('update');
    await markWelcomeDue('chrome_update');
    expect(await fakeBrowser.storage.local.get(null)).toEqual({});
  });

  it('keeps what the person already did with the welcome', async () => {
    await fakeBrowser.storage.local.set({ [WELCOME_KEY]: { status: 'dismissed' } });
    await markWelcomeDue('install');
    expect(await fakeBrowser.storage.local.get(WELCOME_KEY)).toEqual({ [WELCOME_KEY]: { status: 'dismissed' } });
  });
});
