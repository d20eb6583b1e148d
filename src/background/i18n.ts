import { useMessageSource } from '../base/i18n.ts';
import { browser } from './core/browser.ts';

/** Notifications speak the browser's UI language (public/_locales); imported first by service-worker.ts. */
useMessageSource({ getMessage: (key, substitutions) => browser.i18n.getMessage(key, substitutions), locale: browser.i18n.getUILanguage() });
