import { t } from '../../base/i18n.ts';
import type { PairingView } from '../../protocol/bridge.ts';

/**
 * Pairing requests by where they came from (pairing-source.ts in the worker: a bridge connection,
 * and for HTTP the bearer), so the person can refuse a flood from one source in one click. Pure.
 */

/** `conn-3f2a9c01a2b3/http:default` → `HTTP bridge connection 3f2a9c, bearer default`. */
export function sourceWords(source: string, transport: PairingView['client']['transport']): string {
  const [conn = '', sub] = source.split('/', 2);
  const short = conn.replace(/^conn-/, '').slice(0, 6);
  const kind = transport === 'http' ? 'HTTP' : 'stdio';
  if (sub?.startsWith('http:')) return t('pairing_source_words_bearer', kind, short, sub.slice(5));
  return sub ? t('pairing_source_words_sub', kind, short, sub) : t('pairing_source_words', kind, short);
}

export interface SourceGroup {
  source: string;
  words: string;
  requests: PairingView[];
}

/** Sources with more than one request waiting, the largest first: what a flood looks like. */
export function floodingSources(pending: readonly PairingView[]): SourceGroup[] {
  const groups = new Map<string, PairingView[]>();
  for (const p of pending) groups.set(p.source, [...(groups.get(p.source) ?? []), p]);
  return [...groups.entries()]
    .filter(([, requests]) => requests.length > 1)
    .sort((a, b) => b[1].length - a[1].length)
    .map(([source, requests]) => ({ source, words: sourceWords(source, requests[0]!.client.transport), requests }));
}
