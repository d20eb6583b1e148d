import { phrase, type ObserveCause, type Phrase } from '../../protocol/phrase.ts';
import { noAnswerMessage } from '../core/messenger.ts';
import { tabGoneMessage } from './tab-observer.ts';

/**
 * Why a tab could not be observed, as a phrase for the panel (This tab, and a co-pilot run that
 * stopped on it). The two refusals Steward words the same way every time say all of it; every
 * other one is named by its cause (the page stalled, could not be reached, answered out of shape),
 * its English (a browser's or a page's text) one click away. Pure.
 */

/** The cause of an observation refusal, by its code and, for the two fixed wordings, its words. */
export function observeCause(error: { code: string; message: string }, tab: number): ObserveCause {
  if (error.code === 'NO_CONTENT_SCRIPT') return error.message === noAnswerMessage(tab) ? 'observe_no_answer' : 'observe_unreachable';
  if (error.code === 'TAB_GONE' && error.message === tabGoneMessage(tab)) return 'observe_tab_gone';
  if (error.code === 'TIMEOUT') return 'observe_timeout';
  if (error.code === 'INVALID_REPLY') return 'observe_bad_answer';
  return 'observe_failed';
}

export function observeRefusalPhrase(error: { code: string; message: string }, tab: number): Phrase {
  return phrase(observeCause(error, tab), { tab, code: error.code });
}
