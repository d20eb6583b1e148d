import { t } from '../../base/i18n.ts';

/**
 * Why Chrome's Prompt API failed, in the person's language. Chrome rejects with a DOMException
 * whose name says what went wrong and whose message is Chrome's own English: the name is worded
 * from the catalogue with Chrome's message beside it (English shows Chrome's message alone, as
 * before); a name Steward does not know leaves Chrome's message as it is. Pure.
 */
const KNOWN = ['NotAllowedError', 'NotSupportedError', 'QuotaExceededError', 'NetworkError', 'AbortError', 'InvalidStateError', 'OperationError', 'UnknownError'] as const;
type KnownName = (typeof KNOWN)[number];

const isKnown = (name: string): name is KnownName => (KNOWN as readonly string[]).includes(name);

export function promptApiErrorWords(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? error.name : '';
  return isKnown(name) ? t(`err_prompt_api_${name}`, message) : message;
}
