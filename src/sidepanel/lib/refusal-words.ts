import type { Phrase } from '../../protocol/phrase.ts';
import { said, saidWithRecord } from './phrases.ts';

/**
 * A refused panel request in the person's language: the worker's phrase (`error.said`, checked by
 * the reply schema in src/protocol/channel.ts) when it sent one the panel can say; otherwise the
 * English the worker wrote, as it is. Views that know a code's meaning better (an approval card,
 * a pairing card) word it themselves from `code`. Pure.
 */
export function refusalWords(error: { message: string; said?: Phrase | undefined }): string {
  return said(error.said, error.message);
}

/**
 * The same, with the worker's English behind it when the sentence leaves it out (a schema's
 * complaint, an exception's text: src/background/panel/system-refusal.ts), prefixed with the
 * refusal's code for a report; no record when the sentence says it all.
 */
export function refusalWithRecord(error: { code: string; message: string; said?: Phrase | undefined }): { words: string; record?: string } {
  const { words, record } = saidWithRecord(error.said, error.message);
  return record === undefined ? { words } : { words, record: `${error.code}: ${record}` };
}
