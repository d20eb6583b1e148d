import { formatLocale, useMessageSource } from '../base/i18n.ts';
import { readCatalogueAt } from '../protocol/catalogue.ts';
import { browser } from './browser.ts';
import { fallbackSource } from '../base/catalogue-fallback.ts';

/** The panel's words come from Chrome's catalogue for the browser's UI language (public/_locales); imported first by main.tsx. */
useMessageSource({
  getMessage: (key, substitutions) => browser.i18n.getMessage(key, substitutions),
  locale: formatLocale(browser.i18n.getUILanguage(), browser.i18n.getMessage('catalogue_language')),
});

/** Resolves once the panel's words are there: Chrome's, or the packaged catalogue when Chrome gave this page none (catalogue-fallback.ts). */
export async function messagesReady(): Promise<void> {
  const source = await fallbackSource({
    getMessage: (key) => browser.i18n.getMessage(key),
    uiLanguage: browser.i18n.getUILanguage(),
    readCatalogue: (folder) => readCatalogueAt(browser.runtime.getURL(`_locales/${folder}/messages.json`)),
  });
  if (!source) return;
  console.warn('Steward: Chrome gave the panel no message bundle; it reads its catalogue itself');
  useMessageSource(source);
}
