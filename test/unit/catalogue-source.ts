import type { MessageSource } from '../../src/base/i18n.ts';

/**
 * A loaded catalogue as chrome.i18n's message source, for unit tests: the extension itself reads
 * the catalogues through chrome.i18n (src/sidepanel/i18n.ts, src/background/i18n.ts).
 */
/** One entry of a messages.json file (Chrome's format). */
interface CatalogueEntry {
  message: string;
  description?: string;
  placeholders?: Record<string, { content: string; example?: string }>;
}

export type Catalogue = Record<string, CatalogueEntry>;

/**
 * getMessage over a loaded catalogue, with Chrome's rules: `$name$` is the placeholder's content
 * (case-insensitive name), `$1`…`$9` in that content are the substitutions, `$$` is a dollar sign.
 */
export function catalogueSource(catalogue: Catalogue, locale: string): MessageSource {
  const entries = new Map(Object.entries(catalogue).map(([k, v]) => [k.toLowerCase(), v]));
  const positional = (text: string, subs: readonly string[]) => text.replace(/\$(\d)/g, (_, d: string) => subs[Number(d) - 1] ?? '');
  const getMessage: MessageSource['getMessage'] = (key, subs) => {
    const entry = entries.get(key.toLowerCase());
    if (!entry) return '';
    const placeholders = new Map(Object.entries(entry.placeholders ?? {}).map(([k, v]) => [k.toLowerCase(), v.content]));
    return entry.message.replace(/\$\$|\$([A-Za-z0-9_@]+)\$/g, (match, name?: string) => {
      if (match === '$$') return '$';
      const content = placeholders.get(name!.toLowerCase());
      return content === undefined ? match : positional(content, subs);
    });
  };
  return { getMessage, locale };
}
