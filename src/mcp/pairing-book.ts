import type { z } from 'zod';
import { iso, type Clock } from '../base/clock.ts';
import { sha256Hex } from '../base/hash.ts';
import type { BridgeRequests, PairingClient, PairingView } from '../protocol/bridge.ts';
import { ok, refuse, refuseSaying, type Data, type Payload, type Reply } from '../protocol/channel.ts';
import { phrase } from '../protocol/phrase.ts';
import type { MintTokenRequest, PanelPush, PanelRequests, TokenWithUsage } from '../protocol/panel-channel.ts';
import { clientSlug, codeDigits, constantTimeEqual, newClaimSecret, newPairingCode, newPairingId, shortHex, type RandomBytes } from './pairing-code.ts';
import { readPairings, type PairingMap, type PairingRecord } from './pairing-record.ts';
import { admitFrom, refusalWords, sourceKey, type PairingSourceFacts } from './pairing-source.ts';

/**
 * Pairing of MCP clients, as pure logic over ports: a bridge asks for a pairing and gets a short
 * code (shown by its client) and a claim secret (kept by the bridge); the person types the code
 * in the side panel and chooses the grant; the bridge then collects the minted token once, with
 * its claim secret. Every operation runs one at a time over the stored map, so two calls never
 * hand out one token twice.
 */

/** How long a request waits for the person, and, once accepted, for the bridge to collect its token. */
const PAIRING_TTL_MS = 10 * 60_000;
/** Wrong codes a request survives: the third ends it. */
const MAX_WRONG_CODES = 3;
/** How long an ended request is remembered, so a late claim hears why it ended. */
const REMEMBER_ENDED_MS = 60 * 60_000;

interface PairingStorage {
  load(): Promise<unknown>;
  save(records: PairingMap): Promise<void>;
}

export interface PairingBookPorts {
  storage: PairingStorage;
  clock: Clock;
  random: RandomBytes;
  /** Mints the client's token; the secret exists only in this answer. */
  mintToken(request: z.output<typeof MintTokenRequest> & { client_key_sha256?: string }): Promise<TokenWithUsage & { secret: string }>;
  revokeToken(tokenId: string): Promise<void>;
  push(message: PanelPush): void;
  /** Tells the person a pairing waits. */
  announce(clientName: string): void;
}

type PairRequestReply = Reply<Data<BridgeRequests, 'bridge/pair-request'>>;
type PairClaimReply = Reply<Data<BridgeRequests, 'bridge/pair-claim'>>;
type DecideMessage = Payload<PanelRequests, 'panel/pairing-decide'>;
type DecideReply = Reply<Data<PanelRequests, 'panel/pairing-decide'>>;

export interface PairingBook {
  /** A request from `source` (pairing-source.ts): a flood from one source is refused, leaving room for others; nobody's request is evicted. */
  request(client: PairingClient, source: PairingSourceFacts): Promise<PairRequestReply>;
  /** `wait_ms`: while pending, how long to wait for the person's decision before answering (default 0). */
  claim(message: Omit<Payload<BridgeRequests, 'bridge/pair-claim'>, 'wait_ms'> & { wait_ms?: number }): Promise<PairClaimReply>;
  pending(): Promise<PairingView[]>;
  decide(message: DecideMessage): Promise<DecideReply>;
  /** The person refuses every request waiting from one source at once; that source's later requests are refused too (until it reconnects: a new connection is a new source). */
  refuseSource(source: string): Promise<{ refused: number }>;
  /** Ends a request whose bridge went away (its claim secret with it); an uncollected token is revoked. */
  withdraw(pairingId: string): Promise<void>;
  /** Ends what has expired (revoking uncollected tokens) and forgets what ended long ago. */
  sweep(): Promise<void>;
}

const UNKNOWN = 'No such pairing request: pair again.';

export function createPairingBook(ports: PairingBookPorts): PairingBook {
  /** Sources the person refused as a whole (kept while the worker runs; their connections end with it). */
  const refusedSources = new Set<string>();
  let queue: Promise<unknown> = Promise.resolve();
  /** Claims waiting for a decision: woken by any stored change, then they look again. */
  const waiting = new Set<() => void>();
  function nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiting.add(wake);
    });
  }
  /** Runs `work` after every earlier operation, over the map as stored; saves when `work` says it changed. */
  function serial<T>(work: (map: PairingMap, now: number) => Promise<{ result: T; changed: boolean; pendingChanged: boolean }>): Promise<T> {
    const next = queue.then(async () => {
      const now = ports.clock();
      const { records, orphanTokens } = readPairings(await ports.storage.load());
      const swept = await sweepMap(records, now, orphanTokens);
      const done = await work(records, now);
      if (swept.changed || done.changed) {
        await ports.storage.save(records);
        for (const wake of [...waiting]) wake();
      }
      if (swept.pendingChanged || done.pendingChanged) ports.push({ type: 'panel/pairings-changed' });
      return done.result;
    });
    queue = next.catch(() => undefined);
    return next;
  }

  async function revoke(tokenId: string): Promise<boolean> {
    try {
      await ports.revokeToken(tokenId);
      return true;
    } catch {
      return false;
    }
  }

  async function sweepMap(map: PairingMap, now: number, orphanTokens: string[]): Promise<{ changed: boolean; pendingChanged: boolean }> {
    let changed = orphanTokens.length > 0;
    let pendingChanged = false;
    for (const tokenId of orphanTokens) await revoke(tokenId);
    for (const [id, r] of Object.entries(map)) {
      const end = Date.parse(r.expires_at);
      if (now >= end + REMEMBER_ENDED_MS) {
        if (r.status === 'paired') await revoke(r.token.token_id);
        if (r.status === 'pending') pendingChanged = true;
        delete map[id];
        changed = true;
      } else if (now >= end && (r.status === 'pending' || r.status === 'paired')) {
        // An uncollected token stays until its revocation succeeds; a claim refuses it already (expired).
        if (r.status === 'paired' && !(await revoke(r.token.token_id))) continue;
        if (r.status === 'pending') pendingChanged = true;
        map[id] = ended(r, 'expired');
        changed = true;
      }
    }
    return { changed, pendingChanged };
  }

  const isWaiting = (r: PairingRecord, now: number) => r.status === 'pending' && now < Date.parse(r.expires_at);

  /** The claim's one look at the record (claim() may wait between looks). */
  const claimOnce = ({ pairing_id, claim_secret }: { pairing_id: string; claim_secret: string }) =>
    serial(async (map, now) => {
      const r = Object.hasOwn(map, pairing_id) ? map[pairing_id] : undefined;
      // The hash is computed either way: an unknown id and a wrong secret look alike.
      const hash = await sha256Hex(claim_secret);
      if (!r || !constantTimeEqual(r.claim_hash, hash)) return { result: refuse('PAIRING_UNKNOWN', UNKNOWN) as PairClaimReply, changed: false, pendingChanged: false };
      const expired = r.status === 'expired' || now >= Date.parse(r.expires_at);
      if (r.status === 'pending' && !expired) return { result: ok({ status: 'pending' as const, code: r.code, expires_at: r.expires_at }), changed: false, pendingChanged: false };
      if (r.status === 'paired' && !expired) {
        delete map[pairing_id];
        const { secret, ...token } = r.token;
        return { result: ok({ status: 'paired' as const, ...token, token: secret }), changed: true, pendingChanged: false };
      }
      if (r.status === 'paired')
        return { result: refuse('PAIRING_EXPIRED', 'The pairing expired before its token was collected: pair again.') as PairClaimReply, changed: false, pendingChanged: false };
      delete map[pairing_id];
      const result =
        r.status === 'refused'
          ? refuse('PAIRING_REFUSED', 'The person refused this pairing in Steward (or a wrong code was entered three times).')
          : refuse('PAIRING_EXPIRED', 'Nobody accepted the pairing in time: pair again and enter the new code in Steward’s side panel.');
      return { result: result as PairClaimReply, changed: true, pendingChanged: false };
    });

  return {
    request: (client, from) =>
      serial(async (map, now) => {
        const source = sourceKey(from);
        const no = (refusal: Reply<never>) => ({ result: refusal as PairRequestReply, changed: false, pendingChanged: false });
        if (refusedSources.has(source)) return no(refuse('PAIRING_REFUSED', 'The person refused every pairing request from this client in Steward.'));
        const verdict = admitFrom(
          source,
          Object.values(map)
            .filter((r) => isWaiting(r, now))
            .map((r) => r.source),
        );
        if (!verdict.ok) return no(refuse('QUOTA_EXCEEDED', refusalWords(verdict), true));
        const pairing_id = newPairingId(ports.random);
        const claim_secret = newClaimSecret(ports.random);
        const record: PairingRecord = {
          pairing_id,
          client,
          code: newPairingCode(ports.random),
          claim_hash: await sha256Hex(claim_secret),
          requested_at: iso(now),
          expires_at: iso(now + PAIRING_TTL_MS),
          wrong_codes: 0,
          source,
          status: 'pending',
        };
        map[pairing_id] = record;
        ports.announce(client.name);
        return { result: ok({ pairing_id, code: record.code, claim_secret, expires_at: record.expires_at }), changed: true, pendingChanged: true };
      }),

    claim: async (message) => {
      // A bounded wait on the wall clock; the record's own expiry is the book's clock's.
      const deadline = Date.now() + (message.wait_ms ?? 0);
      for (;;) {
        const reply = await claimOnce(message);
        const left = deadline - Date.now();
        if (!reply.ok || reply.data.status !== 'pending' || left <= 0) return reply;
        await nextChange(Math.min(left, Math.max(0, Date.parse(reply.data.expires_at) - ports.clock()) + 10));
      }
    },

    pending: () =>
      serial(async (map, now) => {
        const views = Object.values(map)
          .filter((r) => isWaiting(r, now))
          .sort((a, b) => a.requested_at.localeCompare(b.requested_at))
          .map(({ pairing_id, client, requested_at, expires_at, wrong_codes, source }) => ({ pairing_id, client, requested_at, expires_at, wrong_codes, source }));
        return { result: views, changed: false, pendingChanged: false };
      }),

    decide: ({ pairing_id, decision }) =>
      serial(async (map, now) => {
        const unchanged = (result: Reply<never>) => ({ result: result as DecideReply, changed: false, pendingChanged: false });
        const r = Object.hasOwn(map, pairing_id) ? map[pairing_id] : undefined;
        if (!r) return unchanged(refuse('PAIRING_UNKNOWN', 'This pairing request is no longer waiting.'));
        if (r.status === 'expired' || (r.status === 'pending' && !isWaiting(r, now))) return unchanged(refuse('PAIRING_EXPIRED', 'This pairing request expired: the client must ask again.'));
        if (r.status !== 'pending') return unchanged(refuse('PAIRING_UNKNOWN', 'This pairing request was already decided.'));
        if (!decision.accept) {
          map[pairing_id] = ended(r, 'refused');
          return { result: ok({ status: 'denied' as const }), changed: true, pendingChanged: true };
        }
        const given = codeDigits(decision.code);
        if (given === undefined) return unchanged(refuseSaying(phrase('pairing_code_form'), 'INVALID_INPUT', 'A pairing code is 6 digits, like 483-192.'));
        if (!constantTimeEqual(codeDigits(r.code)!, given)) {
          const wrong = r.wrong_codes + 1;
          if (wrong >= MAX_WRONG_CODES) {
            map[pairing_id] = { ...ended(r, 'refused'), wrong_codes: wrong };
            return {
              result: refuse(
                'PAIRING_REFUSED',
                `That code does not match either. After ${MAX_WRONG_CODES} wrong codes the request from ${r.client.name} is refused; the client must ask again.`,
              ) as DecideReply,
              changed: true,
              pendingChanged: true,
            };
          }
          map[pairing_id] = { ...r, wrong_codes: wrong };
          const left = MAX_WRONG_CODES - wrong;
          return {
            result: refuse('PAIRING_CODE_MISMATCH', `The code does not match the one ${r.client.name} shows. ${left} ${left === 1 ? 'try' : 'tries'} left.`) as DecideReply,
            changed: true,
            pendingChanged: true,
          };
        }
        let minted: TokenWithUsage & { secret: string };
        try {
          minted = await ports.mintToken({
            agent_id: `agent:mcp-${clientSlug(r.client.name)}-${shortHex(ports.random)}`,
            label: r.client.name,
            ...(r.client.key_sha256 ? { client_key_sha256: r.client.key_sha256 } : {}),
            ...decision.grant,
          });
        } catch (error) {
          const why = (error as Error).message;
          return unchanged(refuseSaying(phrase('pairing_grant_failed', { error: why }), 'INVALID_INPUT', `Steward could not grant this token: ${why}`));
        }
        const { secret, ...token } = minted;
        const t = token.token;
        map[pairing_id] = {
          ...r,
          status: 'paired',
          // The bridge collects the token on its client's next call: it gets a fresh window for that.
          expires_at: iso(now + PAIRING_TTL_MS),
          token: { token_id: t.token_id, agent_id: t.agent_id, secret, scope: t.scope, origins: t.origins, resource_scope: t.resource_scope, expires_at: t.expires_at },
        };
        return { result: ok({ status: 'paired' as const, token }), changed: true, pendingChanged: true };
      }),

    refuseSource: (source) =>
      serial(async (map, now) => {
        refusedSources.add(source);
        const waiting = Object.values(map).filter((r) => r.source === source && isWaiting(r, now));
        for (const r of waiting) map[r.pairing_id] = ended(r, 'refused');
        const changed = waiting.length > 0;
        return { result: { refused: waiting.length }, changed, pendingChanged: changed };
      }),

    withdraw: (pairingId) =>
      serial(async (map) => {
        const r = Object.hasOwn(map, pairingId) ? map[pairingId] : undefined;
        if (!r) return { result: undefined, changed: false, pendingChanged: false };
        if (r.status === 'paired') await revoke(r.token.token_id);
        delete map[pairingId];
        return { result: undefined, changed: true, pendingChanged: r.status === 'pending' };
      }),

    sweep: () => serial(() => Promise.resolve({ result: undefined, changed: false, pendingChanged: false })),
  };
}

function ended(r: PairingRecord, status: 'refused' | 'expired'): PairingRecord {
  const { pairing_id, client, code, claim_hash, requested_at, expires_at, wrong_codes, source } = r;
  return { pairing_id, client, code, claim_hash, requested_at, expires_at, wrong_codes, source, status };
}
