import type { ObservedState } from '../../protocol/observed-state.ts';

/** Whether text an agent types was copied from the page it read (quiet-sinks.ts holds such typing for the person). Pure. */

/**
 * Words of a text: runs of letters and digits, joined by the characters ids and addresses hold
 * (`ORD-7001`, `alice@example.com`, `4492.77`), lower-cased, without the joiners at their ends.
 */
function wordsOf(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}@._+-]+/u)) {
    const w = raw.replace(/^[@._+-]+|[@._+-]+$/g, '');
    if (w) out.push(w);
  }
  return out;
}

/**
 * The rule for "this text came from the page": the typed text carries a *distinctive* word the
 * page shows and the person did not say. Distinctive means it carries information on its own, so
 * matching it is not chance: a number or id with at least 4 characters and a digit (`7001`,
 * `ORD-7001`, `K7QX2P`), an address with `@`, or a word of at least 12 letters — any one of these
 * is enough. Plain words of 6 to 11 letters (`marigold`, `overdue`, `parcel`) count only two or
 * more together: one alone is the site's vocabulary as often as a fact ("Where is my parcel?" on
 * "Parcel & Co" was a false hold). Shorter words (`the`, `shoes`, `red`) match any page and prove
 * nothing. Whole words, not substrings, so "running" typed does not match "runner" shown.
 * The person's words (the co-pilot's goal, known to Steward, never the agent's claim) are
 * subtracted: a search for what the person asked for is theirs even when the page shows it too.
 */
function distinctive(word: string): boolean {
  if (word.includes('@')) return word.length >= 5;
  if (/\p{N}/u.test(word)) return word.length >= 4;
  return word.length >= 6;
}

/** A word that proves copying by itself (an id, a number, an address, a very long word); other distinctive words need company. */
function decisive(word: string): boolean {
  return word.includes('@') || /\p{N}/u.test(word) || word.length >= 12;
}

/** The page text an observation carries, as the agent was given it (title, address, names, values, facts, form labels, tool descriptions). */
export function pageTextOf(observed: ObservedState, skipRef?: string): string[] {
  const parts: string[] = [observed.title ?? '', safeDecode(observed.url)];
  for (const e of observed.elements ?? []) {
    // The field being typed into holds the agent's own earlier text (a retry): not the page's.
    if (e.ref === skipRef) continue;
    parts.push(e.name, e.value ?? '', e.description ?? '', e.href ? safeDecode(e.href) : '');
  }
  for (const f of observed.facts ?? []) parts.push(typeof f.value === 'string' || typeof f.value === 'number' ? String(f.value) : '');
  for (const form of observed.forms ?? []) {
    if (form.name) parts.push(form.name);
    for (const field of form.fields) if (field.ref !== skipRef) parts.push(field.name, field.label ?? '', field.value ?? '', ...(field.options ?? []));
  }
  for (const t of observed.tools ?? []) parts.push(t.name, t.description ?? '');
  return parts.filter(Boolean);
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** The distinctive words of `typed` that the page shows and the person did not say (empty: the text is not the page's). */
export function pageDerivedWords(typed: string, pageText: readonly string[], personWords?: string): string[] {
  const candidates = wordsOf(typed).filter(distinctive);
  if (candidates.length === 0) return [];
  const page = new Set<string>();
  for (const part of pageText) for (const w of wordsOf(part)) if (distinctive(w)) page.add(w);
  const person = new Set(personWords ? wordsOf(personWords) : []);
  const copied = [...new Set(candidates.filter((w) => page.has(w) && !person.has(w)))];
  return copied.length >= 2 || copied.some(decisive) ? copied : [];
}
