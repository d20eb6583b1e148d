import { catalogueSource, type Catalogue, type MessageSource } from './i18n.ts';

/**
 * Chrome sometimes gives a freshly opened extension page no message bundle: chrome.i18n.getMessage
 * then answers '' for every key, and the panel would show its keys ("tab_approvals") instead of
 * words. Seen in the e2e suite after Steward was reinstalled in a running browser. The panel then
 * reads its catalogue itself: the UI language's over the default (English), as Chrome would.
 * Pure: each context's i18n.ts (panel, worker) gives it chrome.i18n and a reader of the packaged files.
 */
export interface FallbackPorts {
  getMessage(key: string): string;
  /** Chrome's UI language (`en-US`, `vi`). */
  uiLanguage: string;
  /** The packaged `_locales/<folder>/messages.json`, checked, or undefined when there is none. */
  readCatalogue(folder: string): Promise<Catalogue | undefined>;
}

/** The manifest's default_locale. */
const DEFAULT_FOLDER = 'en';

/** A source to use instead of chrome.i18n, or undefined when Chrome's bundle is there. */
export async function fallbackSource(ports: FallbackPorts): Promise<MessageSource | undefined> {
  if (ports.getMessage('ext_name') !== '') return undefined;
  // Chrome's own order: the full locale (en_US), its language (en), then the default.
  const locale = ports.getMessage('@@ui_locale') || ports.uiLanguage.replace('-', '_');
  const folders = [...new Set([locale, locale.split('_')[0]!, DEFAULT_FOLDER])].reverse();
  let merged: Catalogue = {};
  for (const folder of folders) merged = { ...merged, ...((await ports.readCatalogue(folder).catch(() => undefined)) ?? {}) };
  return Object.keys(merged).length > 0 ? catalogueSource(merged, locale.replace('_', '-')) : undefined;
}
