import type { Pipeline } from '../../pipeline/pipeline.ts';
import { ok, refuseSaying, type Data, type Payload, type Reply } from '../../protocol/channel.ts';
import type { PanelRequests } from '../../protocol/panel-channel.ts';
import { phrase } from '../../protocol/phrase.ts';
import { MAX_TOKEN_TTL_MS } from '../../protocol/token.ts';

/** `panel/tokens`, `panel/token-mint`, `panel/token-revoke`, `panel/taint-clear`: the person grants and withdraws. */

export async function listTokens(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/tokens'>): Promise<Reply<Data<PanelRequests, 'panel/tokens'>>> {
  return ok({ tokens: await pipeline.admin.tokens(message.agent_id) });
}

export async function mintToken(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/token-mint'>): Promise<Reply<Data<PanelRequests, 'panel/token-mint'>>> {
  try {
    // The only time the secret leaves the token store; it is not kept anywhere (only its hash).
    return ok(
      await pipeline.admin.mintToken({
        agent_id: message.agent_id,
        scope: message.scope,
        resource_scope: message.resource_scope,
        origins: message.origins,
        payment: message.payment,
        ttl_ms: message.ttl_ms,
      }),
    );
  } catch (error) {
    // The token store's one RangeError: a lifetime beyond what Steward grants.
    if (error instanceof RangeError) return refuseSaying(phrase('token_lifetime', { max_ms: MAX_TOKEN_TTL_MS }), 'INVALID_INPUT', error.message);
    throw error;
  }
}

export async function revokeToken(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/token-revoke'>): Promise<Reply<Data<PanelRequests, 'panel/token-revoke'>>> {
  const token = await pipeline.admin.revokeToken(message.token_id);
  if (!token) return refuseSaying(phrase('token_not_found', { id: message.token_id }), 'TOKEN_NOT_FOUND', `No token ${message.token_id}.`);
  return ok(token);
}

export async function clearTaint(pipeline: Pipeline, message: Payload<PanelRequests, 'panel/taint-clear'>): Promise<Reply<Data<PanelRequests, 'panel/taint-clear'>>> {
  try {
    return ok(await pipeline.admin.clearTaint(message.agent_id));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return refuseSaying(phrase('taint_unchanged', { error: why }), 'TAINT_UNREADABLE', `The taint record could not be changed: ${why}`.slice(0, 500));
  }
}
