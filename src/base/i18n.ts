/**
 * The panel's and notifications' words in the person's language (issue 30.5): one catalogue per
 * language in Chrome's own format (public/_locales/<lang>/messages.json), read through a message
 * source. In the extension the source is chrome.i18n (installed by each context's i18n.ts); in unit
 * tests it is a catalogue loaded from disk (test/unit/catalogue-source.ts). Pure: no extension API here.
 */
import type english from '../../public/_locales/en/messages.json';

/** Every message key: those of the English catalogue, so a key missing there is a type error. */
export type MessageKey = keyof typeof english;

type HasPlaceholders<K extends MessageKey> = (typeof english)[K] extends { placeholders: object } ? true : false;

/** A message with placeholders takes its values ($1, $2, … in order); one without takes none. */
export type Substitutions<K extends MessageKey, Value = string | number> = HasPlaceholders<K> extends true ? [first: Value, ...rest: Value[]] : [];

/** chrome.i18n.getMessage's shape: '' for a key the catalogue does not have. */
type GetMessage = (key: string, substitutions: string[]) => string;

export interface MessageSource {
  getMessage: GetMessage;
  /** The browser's UI language (chrome.i18n.getUILanguage()), for Intl's number and date formats. */
  locale: string;
}

let source: MessageSource | undefined;

/** Installs where words come from: chrome.i18n in the extension, a loaded catalogue in tests. */
export function useMessageSource(next: MessageSource): void {
  source = next;
  formats = undefined;
}

/** Intl's formatters for the source's locale, built once: t() runs on every render. */
let formats: { numbers: Intl.NumberFormat; plurals: Intl.PluralRules } | undefined;

function formatsOf(): NonNullable<typeof formats> {
  formats ??= { numbers: new Intl.NumberFormat(uiLocale(), { useGrouping: false, maximumFractionDigits: 2 }), plurals: new Intl.PluralRules(uiLocale()) };
  return formats;
}

function current(): MessageSource {
  if (!source) throw new Error('no message source: the context’s i18n.ts installs chrome.i18n before anything is shown');
  return source;
}

/** The message for `key` with its placeholders filled; numbers in the UI locale's digits. */
export function t<K extends MessageKey>(key: K, ...substitutions: Substitutions<K>): string {
  const s = current();
  const text = s.getMessage(
    key,
    substitutions.map((x) => (typeof x === 'number' ? formatNumber(x) : x)),
  );
  // A key this language's catalogue lacks falls back to the key itself: visible, never blank.
  return text === '' ? key : text;
}

/**
 * The locale for Intl's numbers, dates and times: the browser's UI language when the words are in
 * that language (en-GB for English words), else the language of the words the person reads (a
 * Vietnamese catalogue in a browser that reports en-US, as Chromium on Linux does under --lang=vi).
 */
export function formatLocale(uiLanguage: string, wordsLanguage: string): string {
  if (!/^[a-z]{2,3}$/.test(wordsLanguage)) return uiLanguage;
  return uiLanguage.split(/[-_]/)[0]!.toLowerCase() === wordsLanguage ? uiLanguage : wordsLanguage;
}

/** The UI language, as Intl wants it. */
export function uiLocale(): string {
  return current().locale;
}

/** The plural category of `n` in the UI language ('one', 'other', …): picks between `…_one` and `…_other` messages. */
export function pluralOf(n: number): 'one' | 'other' {
  return formatsOf().plurals.select(n) === 'one' ? 'one' : 'other';
}

export function formatNumber(n: number): string {
  return formatsOf().numbers.format(n);
}

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
/** A catalogue read by Steward itself (tests, and a page Chrome gave no message bundle). */
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
