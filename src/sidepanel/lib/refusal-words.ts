import type { Phrase } from '../../protocol/phrase.ts';
import { saidWithRecord } from './phrases.ts';

/**
 * A refused panel request in the person's language: the worker's phrase (`error.said`, checked by
 * the reply schema in src/protocol/channel.ts) when it sent one the panel can say; otherwise the
 * English the worker wrote, as it is. Views that know a code's meaning better (an approval card,
 * a pairing card) word it themselves from `code`. Where the sentence leaves the worker's English
 * out (a schema's complaint, an exception's text: src/background/core/system-refusal.ts), that
 * English is the record, prefixed with the refusal's code for a report; no record when the
 * sentence says it all. Pure.
 */
export function refusalWithRecord(error: { code: string; message: string; said?: Phrase | undefined }): { words: string; record?: string } {
  const { words, record } = saidWithRecord(error.said, error.message);
  return record === undefined ? { words } : { words, record: `${error.code}: ${record}` };
}
