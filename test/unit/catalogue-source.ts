/**
 * A loaded catalogue as chrome.i18n's message source, for unit tests: the extension itself reads
 * the catalogues through chrome.i18n (src/sidepanel/i18n.ts, src/background/i18n.ts).
 */
export { catalogueSource, type Catalogue } from '../../src/base/i18n.ts';
