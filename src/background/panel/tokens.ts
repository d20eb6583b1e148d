import type { z } from 'zod';
import type { Pipeline } from '../../pipeline/pipeline.ts';
import type { PanelListTokens, PanelMintToken, PanelRevokeToken } from '../../protocol/control-messages.ts';
import { ok, refuse, type ControlReply } from './reply.ts';

/** `panel/tokens`, `panel/token-mint`, `panel/token-revoke`: the person grants and withdraws. */

export async function listTokens(pipeline: Pipeline, message: z.infer<typeof PanelListTokens>): Promise<ControlReply> {
  return ok({ tokens: await pipeline.admin.tokens(message.agent_id) });
}

export async function mintToken(pipeline: Pipeline, message: z.infer<typeof PanelMintToken>): Promise<ControlReply> {
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
    if (error instanceof RangeError) return refuse('INVALID_INPUT', error.message);
    throw error;
  }
}

export async function revokeToken(pipeline: Pipeline, message: z.infer<typeof PanelRevokeToken>): Promise<ControlReply> {
  const token = await pipeline.admin.revokeToken(message.token_id);
  if (!token) return refuse('TOKEN_NOT_FOUND', `No token ${message.token_id}.`);
  return ok(token);
}
