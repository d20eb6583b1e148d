import { fallbackSource } from '../base/catalogue-fallback.ts';
import { formatLocale, useMessageSource } from '../base/i18n.ts';
import { readCatalogueAt } from '../protocol/catalogue.ts';
import { browser } from './core/browser.ts';

/** Notifications speak the browser's UI language (public/_locales); imported first by service-worker.ts. */
useMessageSource({
  getMessage: (key, substitutions) => browser.i18n.getMessage(key, substitutions),
  locale: formatLocale(browser.i18n.getUILanguage(), browser.i18n.getMessage('catalogue_language')),
});

// A worker Chrome gave no message bundle reads the packaged catalogue itself (catalogue-fallback.ts).
void fallbackSource({
  getMessage: (key) => browser.i18n.getMessage(key),
  uiLanguage: browser.i18n.getUILanguage(),
  readCatalogue: (folder) => readCatalogueAt(browser.runtime.getURL(`_locales/${folder}/messages.json`)),
})
  .then((source) => source && useMessageSource(source))
  .catch((error: unknown) => console.error('Steward could not read its catalogue', error));
