import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { t, useMessageSource } from '../../../src/base/i18n.ts';
import { promptApiErrorWords } from '../../../src/sidepanel/lib/prompt-api-words.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

/** Chrome's Prompt API refusing to prepare its model, as the Prepare button's error says it (issue 30.5). */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(catalogue(lang), lang === 'en' ? 'en-US' : 'vi'));
afterEach(() => speak('en'));

/** What Chrome rejects with: a DOMException, its message Chrome's own English. */
const chromeError = (name: string, message: string) => Object.assign(new Error(message), { name });
const GESTURE = chromeError('NotAllowedError', 'Requires a user gesture when availability is "downloadable".');

describe('the Prompt API’s errors', () => {
  it('say in Vietnamese what went wrong, with Chrome’s own message beside it', () => {
    speak('vi');
    const words = t('copilot_prompt_failed', promptApiErrorWords(GESTURE));
    expect(words).toMatch(/^Chrome không chuẩn bị được mô hình: Chrome không cho phép tải mô hình lúc này/);
    expect(words).toContain('(Requires a user gesture when availability is "downloadable".)');
    expect(promptApiErrorWords(chromeError('QuotaExceededError', 'Not enough space.'))).toBe('Máy không còn đủ dung lượng trống để tải mô hình (Not enough space.)');
  });

  it('leave an error Steward cannot name as Chrome wrote it, and English as before', () => {
    speak('vi');
    expect(promptApiErrorWords(chromeError('SomethingNewError', 'A newer failure.'))).toBe('A newer failure.');
    expect(promptApiErrorWords('not even an Error')).toBe('not even an Error');
    speak('en');
    expect(t('copilot_prompt_failed', promptApiErrorWords(GESTURE))).toBe('Chrome could not prepare its model: Requires a user gesture when availability is "downloadable".');
    expect(t('err_prompt_api_asking', promptApiErrorWords(chromeError('UnknownError', 'Model unavailable.')))).toBe('Model unavailable.');
  });
});
