import { fakeBrowser } from '@webext-core/fake-browser';
import { readFileSync } from 'node:fs';
import { beforeEach, vi } from 'vitest';
import { useMessageSource } from '../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from './catalogue-source.ts';

// The extension's code reaches the browser through webextension-polyfill (src/*/browser.ts); in
// unit tests that is @webext-core/fake-browser, an in-memory browser reset before every test.
vi.mock('webextension-polyfill', () => ({ default: fakeBrowser }));
beforeEach(() => fakeBrowser.reset());

// The panel's words: the English catalogue, as Chrome in English gives it (test/unit/sidepanel/i18n.test.ts drives Vietnamese).
const english = JSON.parse(readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Catalogue;
beforeEach(() => useMessageSource(catalogueSource(english, 'en-US')));
