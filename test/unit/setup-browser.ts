import { fakeBrowser } from '@webext-core/fake-browser';
import { beforeEach, vi } from 'vitest';

// The extension's code reaches the browser through webextension-polyfill (src/*/browser.ts); in
// unit tests that is @webext-core/fake-browser, an in-memory browser reset before every test.
vi.mock('webextension-polyfill', () => ({ default: fakeBrowser }));
beforeEach(() => fakeBrowser.reset());
