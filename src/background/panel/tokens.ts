import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, refuse, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import type { DelegatedAgentToken } from '../../protocol/token.ts';
import type { StewardDb } from '../../storage/db.ts';
import { tokenStatus } from '../../storage/token-store.ts';

/** `panel/tokens`, `panel/token-mint`, `panel/token-revoke`: the person grants and withdraws. */

/** Actions journaled under each token (how often it was used). */
async function usage(db: StewardDb): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const a of await db.getAll('journal_actions')) counts.set(a.token_id, (counts.get(a.token_id) ?? 0) + 1);
  return counts;
}

const withUsage = (token: DelegatedAgentToken, uses: number, now: number) => ({ token, status: tokenStatus(token, now), uses });

export async function listTokens(pipeline: Pipeline, db: StewardDb, message: Payload<PanelRequests, 'panel/tokens'>): Promise<Reply<Data<PanelRequests, 'panel/tokens'>>> {
  const [tokens, uses] = await Promise.all([pipeline.deps.tokens.list(message.agent_id), usage(db)]);
  const now = pipeline.deps.clock();
  tokens.sort((a, b) => Date.parse(b.issued_at) - Date.parse(a.issued_at));
  return ok({ tokens: tokens.map((t) => withUsage(t, uses.get(t.token_id) ?? 0, now)) });
}

export async function mintToken(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/token-mint'>): Promise<Reply<Data<PanelRequests, 'panel/token-mint'>>> {
  try {
    const { token, secret } = await pipeline.deps.tokens.mint({
      agent_id: message.agent_id,
      scope: message.scope,
      resource_scope: message.resource_scope,
      origins: message.origins,
      payment: message.payment,
      ttl_ms: message.ttl_ms,
    });
    // The only time the secret leaves the token store; it is not kept anywhere (only its hash).
    return ok({ ...withUsage(token, 0, pipeline.deps.clock()), secret });
  } catch (error) {
    if (error instanceof RangeError) return refuse('INVALID_INPUT', error.message);
    throw error;
  }
}

export async function revokeToken(pipeline: Pipeline, db: StewardDb, message: Payload<PanelRequests, 'panel/token-revoke'>): Promise<Reply<Data<PanelRequests, 'panel/token-revoke'>>> {
  const token = await pipeline.deps.tokens.revoke(message.token_id);
  if (!token) return refuse('TOKEN_NOT_FOUND', `No token ${message.token_id}.`);
  return ok(withUsage(token, (await usage(db)).get(token.token_id) ?? 0, pipeline.deps.clock()));
}
