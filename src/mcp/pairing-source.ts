/**
 * Where a pairing request comes from, so one local process cannot fill the pairing queue: the
 * native host's connection (one `steward-bridge` process, or one raw socket client), and within
 * it what the bridge names (the HTTP server's bearer). Pure.
 *
 * A source may hold a few requests at once, a connection a few more (whatever sources it names),
 * and all of them together leave room: a flood from one source is refused while another client's
 * request still gets in.
 */

/** Undecided requests one source may hold at once (a genuine client asks once; a retry after a refusal is a new one). */
const MAX_PER_SOURCE = 2;
/** Undecided requests one connection may hold, whatever sources it names. */
const MAX_PER_CONNECTION = 4;
/** Undecided requests at once, from everyone. */
const MAX_UNDECIDED = 12;

export interface PairingSourceFacts {
  /** The host connection the request came on (Steward's own id for it, not the bridge's word). */
  conn: string;
  /** What the bridge says within it (e.g. `http:default`); bounded by the connection's limit. */
  sub?: string;
}

/** `conn-3f2a9c01/http:default`, or the connection alone. */
export function sourceKey(facts: PairingSourceFacts): string {
  return facts.sub ? `${facts.conn}/${facts.sub}` : facts.conn;
}

const connOf = (key: string) => key.split('/', 1)[0]!;

export type SourceVerdict = { ok: true } | { ok: false; reason: 'source' | 'connection' | 'everyone'; waiting: number };

/** Whether one more request from `key` fits, given the sources of the requests already waiting. */
export function admitFrom(key: string, waitingSources: readonly string[]): SourceVerdict {
  const fromSource = waitingSources.filter((s) => s === key).length;
  if (fromSource >= MAX_PER_SOURCE) return { ok: false, reason: 'source', waiting: fromSource };
  const conn = connOf(key);
  const fromConn = waitingSources.filter((s) => connOf(s) === conn).length;
  if (fromConn >= MAX_PER_CONNECTION) return { ok: false, reason: 'connection', waiting: fromConn };
  if (waitingSources.length >= MAX_UNDECIDED) return { ok: false, reason: 'everyone', waiting: waitingSources.length };
  return { ok: true };
}

/** Why a request was not let in, in words for the client (and its person). */
export function refusalWords(verdict: Exclude<SourceVerdict, { ok: true }>): string {
  if (verdict.reason === 'everyone')
    return `${verdict.waiting} pairing requests are already waiting in Steward's side panel. Ask the person to decide or refuse them, or wait until they expire (10 minutes), then try again.`;
  return `This ${verdict.reason === 'source' ? 'client' : 'bridge connection'} already has ${verdict.waiting} pairing requests waiting in Steward's side panel. Ask the person to decide them, or wait until they expire (10 minutes), then try again.`;
}
