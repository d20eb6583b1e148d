import type { Phrase } from '../../protocol/phrase.ts';
import { said } from './phrases.ts';

/**
 * A refused panel request in the person's language: the worker's phrase (`error.said`, checked by
 * the reply schema in src/protocol/channel.ts) when it sent one the panel can say; otherwise the
 * English the worker wrote, as it is. Views that know a code's meaning better (an approval card,
 * a pairing card) word it themselves from `code`. Pure.
 */
export function refusalWords(error: { message: string; said?: Phrase | undefined }): string {
  return said(error.said, error.message);
}
