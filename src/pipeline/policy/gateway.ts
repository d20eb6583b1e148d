import { originOf } from '../../base/origin.ts';
import type { ActionRequest, AvailableAction } from '../../protocol/action.ts';
import type { ApprovalReason } from '../../protocol/approval.ts';
import { phrase } from '../../protocol/phrase.ts';
import { makeError, type StewardError } from '../../protocol/errors.ts';
import { resourceScopeCovers, type ResourceRef } from '../../protocol/resource.ts';
import type { DelegatedAgentToken } from '../../protocol/token.ts';
import type { TokenCheck } from '../../storage/token-store.ts';
import type { DomClassification } from './dom-risk.ts';
import type { RateLimiter } from './quota.ts';
import { approvalReasons } from './risk.ts';
import { NO_POLICY, type Policy } from '../../protocol/managed-policy.ts';
import { actionVerdict, clampTtlMs, pairingRule, pairingVerdict, siteVerdict } from '../../protocol/policy-rules.ts';

/** Paired MCP clients' agent ids (src/mcp/pairing-book.ts): their tokens obey the pairing lifetime cap too. */
const PAIRED_AGENT_PREFIX = 'agent:mcp-';
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
  /** `policy`: the organisation's managed policy now (read on every decision, so a change applies to the next one). */
  constructor(
    private readonly limiter: RateLimiter,
    private readonly policy: () => Policy = () => NO_POLICY,
  ) {}

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
    const organisation = this.organisationRefusal(input);
    if (organisation) return { kind: 'refuse', error: organisation };
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
    const required = actionVerdict(this.policy(), request.action, input.now);
    const extra: ApprovalReason[] = [...(input.extra ?? [])];
    if (required.kind === 'needs_approval')
      extra.push({
        code: 'organisation_policy',
        detail: `your organisation requires approval for ${required.pattern}`,
        detail_said: phrase('reason_organisation', { pattern: required.pattern }),
      });
    const reasons = approvalReasons(description, {
      untrusted_input: input.untrusted_input,
      tainted: input.tainted === true,
      dom: offSiteLink(input.dom, token.origins),
      ...(extra.length ? { extra } : {}),
    });
    return reasons.length > 0 ? { kind: 'needs_approval', reasons, required_scope: scope } : { kind: 'allow', required_scope: scope };
  }

  private organisationRefusal(input: GatewayInput): StewardError | undefined {
    return organisationRefusalOf(this.policy(), input);
  }
}

/**
 * The organisation's policy, which no token and no approval outranks: a site it keeps Steward off
 * (the page's, or a navigation's target), or an action it has frozen for now.
 */
function organisationRefusalOf(policy: Policy, input: GatewayInput): StewardError | undefined {
  const { request } = input;
  const targets = [input.origin, ...(request.action === 'nav.goto' ? [originOf(String(request.input.url))].filter((o): o is string => o !== undefined) : [])];
  for (const origin of targets) {
    const site = siteVerdict(policy, origin);
    if (!site.ok) return makeError('POLICY_DENIED', `Refused: ${site.message}`, { details: { policy: site.reason === 'blocked' ? 'blockedSites' : 'allowedSites', origin } });
  }
  // A paired client the organisation no longer lets pair loses what its pairing gave it.
  if (input.agent_id.startsWith(PAIRED_AGENT_PREFIX)) {
    const name = input.token.label ?? '';
    const pairing = pairingVerdict(policy, name, input.token.client_key_sha256);
    if (!pairing.ok) return makeError('POLICY_DENIED', `Refused: ${pairing.message}`, { details: { policy: pairingRule(policy, name) } });
  }
  // A token granted before the policy capped lifetimes ends where the cap would have ended it.
  const cap = clampTtlMs(policy, input.agent_id.startsWith(PAIRED_AGENT_PREFIX) ? 'pairing' : 'token', Number.MAX_SAFE_INTEGER);
  if (cap < Number.MAX_SAFE_INTEGER && input.now - Date.parse(input.token.issued_at) >= cap) {
    return makeError('TOKEN_INVALID', `Refused: your organisation limits tokens to ${Math.round(cap / 60_000)} minutes, and this one is older.`, {
      details: { policy: input.agent_id.startsWith(PAIRED_AGENT_PREFIX) ? 'maxPairingLifetimeMinutes' : 'maxTokenLifetimeMinutes' },
    });
  }
  const action = actionVerdict(policy, request.action, input.now);
  if (action.kind === 'frozen') {
    const until = action.until !== undefined ? new Date(action.until).toISOString() : undefined;
    return makeError('POLICY_DENIED', `Refused: your organisation has frozen ${request.action} (${action.pattern})${until ? ` until ${until}` : ''}; nobody can approve it meanwhile.`, {
      details: { policy: 'frozenActions', action: request.action, pattern: action.pattern, ...(until ? { until } : {}) },
    });
  }
  return undefined;
}

/** A link to an origin outside the token's origins is not a read-only look around: it needs approval. */
function offSiteLink(dom: DomClassification | undefined, origins: readonly string[]): DomClassification | undefined {
  if (!dom?.leads_to) return dom;
  const target = originOf(dom.leads_to);
  if (target && origins.includes(target)) return dom;
  const to = (target ?? dom.leads_to).slice(0, 300);
  const detail = `follows a link to ${to}, outside the sites this agent may use`;
  return { ...dom, read_only: false, consequential: true, reasons: [...dom.reasons, { code: 'not_read_only', detail, detail_said: phrase('reason_off_site_link', { to }) }] };
}
