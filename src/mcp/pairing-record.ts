import { z } from 'zod';
import { PairingClient, PairingCode, PairingId } from '../protocol/bridge.ts';
import { AgentId, IsoDateTime, Origin } from '../protocol/primitives.ts';
import { ResourceScope } from '../protocol/resource.ts';
import { ScopeEntry, TokenId, TokenSecret } from '../protocol/token.ts';

/**
 * A pairing as kept in chrome.storage.session, validated on every read: a record that does not
 * fit is dropped, never half-trusted. Only the claim secret's SHA-256 is kept; the token secret is
 * kept until the bridge collects it once.
 */

const Common = {
  pairing_id: PairingId,
  client: PairingClient,
  code: PairingCode,
  /** SHA-256 (hex) of the claim secret the bridge holds. */
  claim_hash: z.string().regex(/^[0-9a-f]{64}$/),
  requested_at: IsoDateTime,
  /** The end of the request, or, once accepted, of the bridge's time to collect the token. */
  expires_at: IsoDateTime,
  wrong_codes: z.number().int().nonnegative(),
  /** Where the request came from (pairing-source.ts): the flood limits and the panel's one-click refusal go by it. */
  source: z.string().min(1).max(240).default('unknown'),
};

const GrantedToken = z.object({
  token_id: TokenId,
  agent_id: AgentId,
  secret: TokenSecret,
  scope: z.array(ScopeEntry),
  origins: z.array(Origin),
  resource_scope: ResourceScope,
  expires_at: IsoDateTime,
});

export const PairingRecord = z.discriminatedUnion('status', [
  z.object({ ...Common, status: z.literal('pending') }),
  z.object({ ...Common, status: z.literal('refused') }),
  /** Past its time, kept a while so the bridge hears PAIRING_EXPIRED rather than PAIRING_UNKNOWN. */
  z.object({ ...Common, status: z.literal('expired') }),
  z.object({ ...Common, status: z.literal('paired'), token: GrantedToken }),
]);
export type PairingRecord = z.infer<typeof PairingRecord>;

export type PairingMap = Record<string, PairingRecord>;

export interface ReadPairings {
  records: PairingMap;
  /** Tokens named by records that no longer validate: minted for a pairing nobody can collect now. */
  orphanTokens: string[];
}

/** The stored map, record by record: what fits is kept, what does not is dropped (its token, if it named one, to be revoked). */
export function readPairings(raw: unknown): ReadPairings {
  const records: PairingMap = {};
  const orphanTokens: string[] = [];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { records, orphanTokens };
  for (const [id, value] of Object.entries(raw)) {
    const parsed = PairingRecord.safeParse(value);
    if (parsed.success && parsed.data.pairing_id === id) {
      records[id] = parsed.data;
      continue;
    }
    const tokenId = TokenId.safeParse((value as { token?: { token_id?: unknown } } | null)?.token?.token_id);
    if (tokenId.success) orphanTokens.push(tokenId.data);
  }
  return { records, orphanTokens };
}
