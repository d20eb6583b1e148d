import { z } from 'zod';
import { t } from '../../base/i18n.ts';
import type { Payload } from '../../protocol/channel.ts';
import { MintTokenRequest, type PanelRequests } from '../../protocol/panel-channel.ts';
import { AgentId, Origin } from '../../protocol/primitives.ts';
import { ResourceScope } from '../../protocol/resource.ts';
import { MAX_TOKEN_TTL_MS, ScopeEntry } from '../../protocol/token.ts';

/**
 * The mint form's raw text → a `panel/token-mint` message, or one message per field saying what
 * is wrong. Uses the protocol's own schemas so the form never accepts what the service worker
 * would refuse. Pure.
 */

export interface MintFormValues {
  agent_id: string;
  scopes: string;
  resource_scope: string;
  origins: string;
  payment: boolean;
  lifetime_minutes: number;
}

export type MintField = keyof MintFormValues;
export type MintMessage = { type: 'panel/token-mint' } & Payload<PanelRequests, 'panel/token-mint'>;
export type MintFormResult = { ok: true; message: MintMessage } | { ok: false; errors: Partial<Record<MintField, string>> };

/** Commas, spaces and new lines all separate list items. */
export function splitList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** `http://localhost:4100/` → `http://localhost:4100` (a pasted URL with only a trailing slash). */
function normalizeOrigin(text: string): string {
  try {
    const u = new URL(text);
    if (u.pathname === '/' && !u.search && !u.hash && text.endsWith('/') && `${u.origin}/` === text) return u.origin;
  } catch {
    // left as is: the schema explains what is wrong
  }
  return text;
}

/** `what` names one item in words, for "Give at least one …"; `invalid` says, in words, why an item is not one. */
export function listErrors(items: string[], schema: z.ZodType, what: string, invalid?: (item: string) => string): string | undefined {
  if (items.length === 0) return t('tokens_list_empty', what);
  const seen = new Set<string>();
  for (const item of items) {
    const r = schema.safeParse(item);
    // What is wrong: the caller's words when it has them, else the schema's own (English, as the protocol writes it).
    if (!r.success) return invalid ? invalid(item) : t('tokens_list_item_invalid', item, r.error.issues[0]?.message ?? t('tokens_is_not_valid'));
    if (seen.has(item)) return t('tokens_list_item_twice', item);
    seen.add(item);
  }
  return undefined;
}

export function buildMint(v: MintFormValues): MintFormResult {
  const errors: Partial<Record<MintField, string>> = {};
  const agent = v.agent_id.trim();
  const a = AgentId.safeParse(agent);
  if (!a.success) errors.agent_id = t('tokens_bad_agent', a.error.issues[0]?.message ?? t('tokens_is_not_valid'));

  const scopes = splitList(v.scopes);
  const scopeError = listErrors(scopes, ScopeEntry, t('tokens_what_scope'));
  if (scopeError) errors.scopes = scopeError;

  const resourceScope = v.resource_scope.trim();
  const r = ResourceScope.safeParse(resourceScope);
  if (!r.success) errors.resource_scope = t('tokens_bad_resource_scope', r.error.issues[0]?.message ?? t('tokens_is_not_valid'));

  const origins = splitList(v.origins).map(normalizeOrigin);
  const originError = listErrors(origins, Origin, t('tokens_what_origin'));
  if (originError) errors.origins = originError;

  const ttl = Math.round(v.lifetime_minutes * 60_000);
  if (!(ttl > 0 && ttl <= MAX_TOKEN_TTL_MS)) errors.lifetime_minutes = t('tokens_bad_lifetime', MAX_TOKEN_TTL_MS / 86_400_000);

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const message = MintTokenRequest.safeParse({
    agent_id: agent,
    scope: scopes,
    resource_scope: resourceScope,
    origins,
    payment: v.payment,
    ttl_ms: ttl,
  });
  // The per-field checks above mirror this schema; a mismatch is reported, not swallowed.
  if (!message.success) return { ok: false, errors: { agent_id: message.error.issues[0]?.message ?? t('tokens_invalid_request') } };
  return { ok: true, message: { type: 'panel/token-mint', ...message.data } };
}
