import { observeCause } from '../ports/refusal-phrase.ts';
import { phrase, type Phrase } from '../../protocol/phrase.ts';
import { CorruptRecordError } from '../../storage/read.ts';
import { TabUnobserved } from './run-ports.ts';

/**
 * Why a co-pilot run failed ("Steward failed: …"), as a phrase for the panel: a cause Steward can
 * name (its tab could not be observed, its storage is full, a stored record is unreadable, an
 * IndexedDB error) in a sentence of its own; anything else as an internal error. The error's own
 * words stay in the run's English record, one click away. Pure.
 */

/** DOMException names only IndexedDB gives a failing request or transaction (QuotaExceededError is said on its own). */
const STORAGE_ERRORS = new Set(['InvalidStateError', 'TransactionInactiveError', 'ReadOnlyError', 'VersionError', 'UnknownError', 'ConstraintError', 'DataError']);

const named = (error: unknown, name: string) => typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;

export function runFailurePhrase(error: unknown, tabId: number): Phrase {
  if (error instanceof TabUnobserved) {
    const refusal = { code: error.code, message: error.detail };
    return phrase('run_unobserved', { cause: observeCause(refusal, tabId), tab: tabId, code: error.code });
  }
  if (error instanceof CorruptRecordError) return phrase('run_storage_corrupt');
  if (named(error, 'QuotaExceededError')) return phrase('run_storage_full');
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && STORAGE_ERRORS.has(name) && typeof DOMException !== 'undefined' && error instanceof DOMException) return phrase('run_storage_failed', { name });
  return phrase('run_internal_error');
}
