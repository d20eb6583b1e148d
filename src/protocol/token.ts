import { z } from 'zod';
import { AgentId, IsoDateTime, Origin, UrlOrPath, UserId, duplicateIndices, isAfter, prefixedId } from './primitives.ts';
import { ResourceScope } from './resource.ts';

/**
 * Token id, e.g. `tok_3f9a1c`: the token's public name, in records, the audit log and the side
 * panel. It is never a credential: an agent presents the token's secret instead.
 */
export const TokenId = prefixedId('tok_', 'tok_3f9a1c');
export type TokenId = z.infer<typeof TokenId>;

/** Longest lifetime Steward mints; a longer grant must be renewed. */
export const MAX_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * What an agent presents (DESIGN §4: a bearer secret, shown once at minting, stored only as its
 * SHA-256): `stw_secret_` + 32 random bytes in base64url. The prefix lets secret scanners spot one.
 */
export const TOKEN_SECRET_PREFIX = 'stw_secret_';
export const TokenSecret = z.string().regex(/^stw_secret_[A-Za-z0-9_-]{43}$/, 'must be a Steward token secret (stw_secret_…)');
export type TokenSecret = z.infer<typeof TokenSecret>;

/**
 * One permission, `<namespace>:<verb>`: `orders:read`, `orders:cancel`, `orders:*`, `*:*`.
 * How actions map onto scopes (and a naming for WebMCP tools, e.g. `webmcp:<tool>`) is the
 * policy gateway's decision; this only fixes the format.
 */
export const ScopeEntry = z.string().regex(/^(?:[a-z][a-z0-9_]*|\*):(?:[A-Za-z0-9_][A-Za-z0-9_.-]{0,255}|\*)$/, 'must be "<namespace>:<verb>", e.g. orders:read or orders:cancel');
export type ScopeEntry = z.infer<typeof ScopeEntry>;

/** The agent's own delegated identity (DESIGN §4); never the user's credentials. */
export const DelegatedAgentTokenBase = z.object({
  token_type: z.literal('delegated_agent_token'),
  token_id: TokenId,
  agent_id: AgentId,
  principal: UserId,
  scope: z.array(ScopeEntry).min(1, 'must grant at least one scope').max(256),
  resource_scope: ResourceScope,
  origins: z.array(Origin).min(1, 'must name at least one origin').max(64),
  /** Whether the agent may touch payment at all (still behind approval). */
  payment: z.boolean(),
  issued_at: IsoDateTime,
  expires_at: IsoDateTime,
  revocable_at: UrlOrPath,
  /** Who the token is for, as the person saw it when granting (an MCP client's name); shown in the Tokens view. */
  label: z.string().min(1).max(120).optional(),
  /** SHA-256 of the organisation's key the MCP client presented when it paired (policy `mcpClientKeys` is asked again on every call). */
  client_key_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** Set once revoked; a revoked token is refused even before expiry. */
  revoked_at: IsoDateTime.optional(),
});

/** The checks every token record must pass (the stored form too). */
export function refineToken(t: z.infer<typeof DelegatedAgentTokenBase>, ctx: z.RefinementCtx): void {
  if (!isAfter(t.expires_at, t.issued_at)) {
    ctx.addIssue({ code: 'custom', path: ['expires_at'], message: 'must be after issued_at' });
  }
  if (t.revoked_at !== undefined && Date.parse(t.revoked_at) < Date.parse(t.issued_at)) {
    ctx.addIssue({ code: 'custom', path: ['revoked_at'], message: 'cannot be before issued_at' });
  }
  for (const i of duplicateIndices(t.scope)) ctx.addIssue({ code: 'custom', path: ['scope', i], message: `repeats "${t.scope[i]}"` });
  for (const i of duplicateIndices(t.origins)) ctx.addIssue({ code: 'custom', path: ['origins', i], message: `repeats "${t.origins[i]}"` });
}

export const DelegatedAgentToken = DelegatedAgentTokenBase.superRefine(refineToken);
export type DelegatedAgentToken = z.infer<typeof DelegatedAgentToken>;
