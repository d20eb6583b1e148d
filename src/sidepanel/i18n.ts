import { useMessageSource } from '../base/i18n.ts';
import { browser } from './browser.ts';

/** The panel's words come from Chrome's catalogue for the browser's UI language (public/_locales); imported first by main.tsx. */
useMessageSource({ getMessage: (key, substitutions) => browser.i18n.getMessage(key, substitutions), locale: browser.i18n.getUILanguage() });
