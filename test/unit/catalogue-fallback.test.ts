import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { t, useMessageSource } from '../../src/base/i18n.ts';
import { CatalogueFile } from '../../src/protocol/catalogue.ts';
import { fallbackSource } from '../../src/base/catalogue-fallback.ts';
import { catalogueSource } from './catalogue-source.ts';

/** The packaged catalogues, read as the panel reads them (checked by the protocol's schema). */
const read = async (folder: string) => {
  try {
    return CatalogueFile.parse(JSON.parse(readFileSync(new URL(`../../public/_locales/${folder}/messages.json`, import.meta.url), 'utf8')));
  } catch {
    return undefined;
  }
};
const english = CatalogueFile.parse(JSON.parse(readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8')));

describe('a panel page Chrome gave no message bundle', () => {
  afterEach(() => useMessageSource(catalogueSource(english, 'en')));

  it('reads its catalogue itself: English words, not keys', async () => {
    const source = await fallbackSource({ getMessage: () => '', uiLanguage: 'en-US', readCatalogue: read });
    expect(source).toBeDefined();
    useMessageSource(source!);
    expect(t('tab_approvals')).toBe('Approvals');
    expect(t('activity_steps_other', 3)).toBe('3 steps');
  });

  it('in the UI language Chrome names, over English for anything it lacks', async () => {
    const source = await fallbackSource({ getMessage: (key) => (key === '@@ui_locale' ? 'vi' : ''), uiLanguage: 'vi', readCatalogue: read });
    useMessageSource(source!);
    expect(t('tab_approvals')).toBe('Phê duyệt');
  });

  it('leaves Chrome’s own bundle alone when it is there', async () => {
    expect(await fallbackSource({ getMessage: (key) => (key === 'ext_name' ? 'Steward' : ''), uiLanguage: 'en-US', readCatalogue: read })).toBeUndefined();
  });
});
