import { originOf } from '../../base/origin.ts';
import type { ActionRequest, AvailableAction } from '../../protocol/action.ts';
import type { ApprovalReason } from '../../protocol/approval.ts';
import { makeError, type StewardError } from '../../protocol/errors.ts';
import { resourceScopeCovers, type ResourceRef } from '../../protocol/resource.ts';
import type { DelegatedAgentToken } from '../../protocol/token.ts';
import type { TokenCheck } from '../../storage/token-store.ts';
import type { DomClassification } from './dom-risk.ts';
import type { RateLimiter } from './quota.ts';
import { approvalReasons } from './risk.ts';
import { requiredScope, scopeCovers } from './scope.ts';

export type GatewayDecision = { kind: 'allow'; required_scope: string } | { kind: 'needs_approval'; reasons: ApprovalReason[]; required_scope: string } | { kind: 'refuse'; error: StewardError };

export interface GatewayInput {
  agent_id: string;
  token: DelegatedAgentToken;
  request: ActionRequest;
  description: AvailableAction;
  /** Origin of the page or contract endpoint the action would run against. */
  origin: string;
  untrusted_input: boolean;
  /** The runtime's taint of this agent (taint.ts). */
  tainted?: boolean;
  dom?: DomClassification;
  /** Further reasons to ask the person (risk.ts RiskContext.extra). */
  extra?: readonly ApprovalReason[];
  now: number;
  /** False when re-checking an action already counted (after an approval or a restart). */
  count_quota?: boolean;
}

const TOKEN_PROBLEM: Record<Exclude<TokenCheck, { ok: true }>['reason'], string> = {
  unknown: 'the agent token is not known to Steward',
  expired: 'the agent token has expired',
  revoked: 'the agent token has been revoked',
  corrupt: 'the agent token record is damaged and cannot be trusted',
};

/**
 * Step 2 (delegated auth), before anything is observed or navigated: a valid token of this very
 * agent whose resource_scope covers the resource. Returns the token, or the refusal.
 */
export function checkToken(agentId: string, check: TokenCheck, resource: ResourceRef): { ok: true; token: DelegatedAgentToken } | { ok: false; error: StewardError } {
  if (!check.ok) return { ok: false, error: makeError('TOKEN_INVALID', `Refused: ${TOKEN_PROBLEM[check.reason]}.`) };
  if (check.token.agent_id !== agentId) {
    return { ok: false, error: makeError('TOKEN_INVALID', 'Refused: the agent token was issued to another agent.') };
  }
  if (!resourceScopeCovers(check.token.resource_scope, resource)) {
    return {
      ok: false,
      error: makeError('SCOPE_DENIED', `Refused: the token covers ${check.token.resource_scope}, not ${resource.type}:${resource.id}.`, {
        details: { resource_scope: check.token.resource_scope },
      }),
    };
  }
  if (resource.origin !== undefined && !check.token.origins.includes(resource.origin)) {
    return { ok: false, error: makeError('SCOPE_DENIED', `Refused: the token is not valid on ${resource.origin}.`, { details: { origin: resource.origin } }) };
  }
  return { ok: true, token: check.token };
}

/**
 * Step 7, the policy gateway: scope (action → required scope), origin, payment, quota and rate
 * limit, then risk. Pure apart from the rate limiter's counters; the caller has already checked
 * the token (checkToken) and re-checks nothing here but what needs the observation.
 */
export class PolicyGateway {
  constructor(private readonly limiter: RateLimiter) {}

  evaluate(input: GatewayInput): GatewayDecision {
    const { token, request, description } = input;
    const scope = requiredScope(request.action, description.via);
    const deny = (message: string, details?: Record<string, unknown>): GatewayDecision => ({
      kind: 'refuse',
      error: makeError('SCOPE_DENIED', message, details ? { details } : {}),
    });
    if (!scopeCovers(token.scope, scope)) return deny(`Refused: ${request.action} needs scope ${scope}, which the token does not grant.`, { required_scope: scope });
    if (!resourceScopeCovers(token.resource_scope, request.resource)) return deny(`Refused: the token covers ${token.resource_scope} only.`);
    if (!token.origins.includes(input.origin)) return deny(`Refused: the token is not valid on ${input.origin}.`, { origin: input.origin });
    // The site the action meets is the resource's own: never another site's resource of the same type and id.
    if (request.resource.origin !== undefined && request.resource.origin !== input.origin) {
      return deny(`Refused: ${request.resource.type} ${request.resource.id} is on ${request.resource.origin}, not on ${input.origin}.`, {
        origin: input.origin,
        resource_origin: request.resource.origin,
      });
    }
    if (request.action === 'nav.goto') {
      const target = originOf(String(request.input.url));
      if (!target || !token.origins.includes(target)) return deny(`Refused: navigating to ${target ?? 'that URL'} leaves the token's origins.`, { origin: target });
    }
    const payment = description.payment || (input.dom?.payment ?? false);
    if (payment && !token.payment) return deny(`Refused: ${request.action} touches payment and the token does not allow payment.`);

    const quota = input.count_quota === false ? ({ ok: true } as const) : this.limiter.take(input.agent_id, input.now);
    if (!quota.ok) {
      return {
        kind: 'refuse',
        error: makeError('QUOTA_EXCEEDED', `Refused: the agent's ${quota.limit === 'per_minute' ? 'rate limit' : 'daily quota'} is used up.`, {
          retry_after_ms: quota.retry_after_ms,
          details: { limit: quota.limit },
        }),
      };
    }
    const reasons = approvalReasons(description, {
      untrusted_input: input.untrusted_input,
      tainted: input.tainted === true,
      dom: offSiteLink(input.dom, token.origins),
      ...(input.extra?.length ? { extra: input.extra } : {}),
    });
    return reasons.length > 0 ? { kind: 'needs_approval', reasons, required_scope: scope } : { kind: 'allow', required_scope: scope };
  }
}

/** A link to an origin outside the token's origins is not a read-only look around: it needs approval. */
function offSiteLink(dom: DomClassification | undefined, origins: readonly string[]): DomClassification | undefined {
  if (!dom?.leads_to) return dom;
  const target = originOf(dom.leads_to);
  if (target && origins.includes(target)) return dom;
  const detail = `follows a link to ${(target ?? dom.leads_to).slice(0, 300)}, outside the sites this agent may use`;
  return { ...dom, read_only: false, consequential: true, reasons: [...dom.reasons, { code: 'not_read_only', detail }] };
}
