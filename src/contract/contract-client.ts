import { z } from 'zod';
import { systemClock, type Clock } from '../base/clock.ts';
import { type RevokeRequest, SiteResourceState, TokenGrant, TokenRequest } from '../protocol/agent-contract.ts';
import type { ResourceRef } from '../protocol/resource.ts';
import type { ExecutionCall, ExecutionReport } from '../pipeline/ports.ts';
import { contractActionFor, executeReportOf, executeRequestFor, notSent, statusReportOf } from './execute.ts';
import type { AgentKey, DiscoveredContract, HttpPort, SiteGrant } from './ports.ts';
import { refusalReason } from './refusals.ts';
import { signedRequest, type UnsignedRequest } from './signed-request.ts';
import { endpointUrl, grantProblem, messageOf, sameOriginUrl, sendToSite, shapeError, siteRefusal, type Result, type SiteAnswer, type SiteCallError } from './site-call.ts';

/**
 * Steward's client of a site's Agent Action API: read a resource's state, execute an action,
 * poll an accepted one, ask the person's site for a grant, revoke it. Every request is signed
 * with the agent key and goes only to the contract's own origin, on the contract's endpoints.
 */

export interface ContractClientDeps {
  http: HttpPort;
  key: AgentKey;
  now?: Clock;
}

/** The person's consent from the side panel, plus the name the site shows for Steward. */
interface GrantRequest {
  scopes: string[];
  resource_scope: string[];
  payment: boolean;
  expires_in_s: number;
  agent_name: string;
}

export interface ContractClient {
  /** GET the resource's authoritative state (integer state_version). */
  readState(contract: DiscoveredContract, grant: SiteGrant, ref: ResourceRef): Promise<Result<SiteResourceState, SiteCallError>>;
  /** POST execute: confirmed (200), accepted (202, absolute same-origin status_url) or failed (`site_error` when the site refused). */
  execute(contract: DiscoveredContract, grant: SiteGrant, call: ExecutionCall): Promise<ExecutionReport>;
  /** GET an accepted action's status: confirmed / failed settle it, accepted means not yet (also when the poll got no readable answer). */
  status(contract: DiscoveredContract, grant: SiteGrant, statusUrl: string, resource?: ResourceRef): Promise<ExecutionReport>;
  /** POST token with the person's session (cookies): the site grants a token bound to Steward's key. */
  requestGrant(contract: DiscoveredContract, request: GrantRequest): Promise<Result<SiteGrant, SiteCallError>>;
  /** POST revoke. A token the site already ended counts as revoked. */
  revoke(contract: DiscoveredContract, grant: SiteGrant): Promise<Result<void, SiteCallError>>;
}

const notSentError = (message: string): { ok: false; error: SiteCallError } => ({ ok: false, error: { code: 'not_sent', message: message.slice(0, 1024) } });

const RevokeAnswer = z.object({ revoked: z.literal(true) });

export function createContractClient(deps: ContractClientDeps): ContractClient {
  const now = deps.now ?? systemClock;
  const { http, key } = deps;

  /** Signs and sends; a request that cannot be built or signed is `not_sent`. */
  async function send(contract: DiscoveredContract, request: UnsignedRequest): Promise<SiteAnswer> {
    const auth = contract.contract.auth.signature;
    let signed;
    try {
      signed = await signedRequest({ ...request, keyDirectoryPath: contract.contract.endpoints.key_directory, maxValidityS: auth.max_validity_s }, key, now);
    } catch (error) {
      return { kind: 'failed', error: { code: 'not_sent', message: `the request could not be signed: ${messageOf(error)}` } };
    }
    return sendToSite(http, signed);
  }

  async function readState(contract: DiscoveredContract, grant: SiteGrant, ref: ResourceRef): Promise<Result<SiteResourceState, SiteCallError>> {
    const problem = grantProblem(contract, grant, key.keyid, now());
    if (problem) return notSentError(problem);
    if (!contract.contract.resources.some((r) => r.type === ref.type)) return notSentError(`${contract.contract.site.name}'s contract defines no resource type "${ref.type}"`);
    const url = endpointUrl(contract, contract.contract.endpoints.resource_state, { type: ref.type, id: ref.id });
    if (url === undefined) return notSentError('the resource_state endpoint does not stay on the contract origin');
    const answer = await send(contract, { method: 'GET', url, token: grant.grant.token });
    if (answer.kind === 'failed') return { ok: false, error: answer.error };
    if (answer.status !== 200) return { ok: false, error: siteRefusal(answer.status, answer.json) };
    const parsed = SiteResourceState.safeParse(answer.json);
    if (!parsed.success) return { ok: false, error: shapeError(200, "the site's resource state", parsed.error.issues) };
    if (parsed.data.resource.type !== ref.type || parsed.data.resource.id !== ref.id) {
      return { ok: false, error: { code: 'bad_response', status: 200, message: `asked for ${ref.type} ${ref.id}, the site answered about ${parsed.data.resource.type} ${parsed.data.resource.id}` } };
    }
    return { ok: true, value: parsed.data };
  }

  async function execute(contract: DiscoveredContract, grant: SiteGrant, call: ExecutionCall): Promise<ExecutionReport> {
    if (!contractActionFor(contract.contract, call.action, call.resource.type)) {
      return notSent(`${contract.contract.site.name}'s contract defines no action ${call.action} for ${call.resource.type}`, true);
    }
    const problem = grantProblem(contract, grant, key.keyid, now());
    if (problem) return notSent(problem);
    const url = endpointUrl(contract, contract.contract.endpoints.execute);
    if (url === undefined) return notSent('the execute endpoint does not stay on the contract origin');
    let request;
    try {
      request = await executeRequestFor(call, now());
    } catch (error) {
      return notSent(`the call does not make a valid execute request: ${messageOf(error)}`);
    }
    const answer = await send(contract, {
      method: 'POST',
      url,
      body: JSON.stringify(request.body),
      token: grant.grant.token,
      idempotencyKey: request.idempotencyKey,
      ...(request.ifMatch !== undefined ? { ifMatch: request.ifMatch } : {}),
    });
    if (answer.kind === 'failed' && answer.error.code === 'not_sent') return notSent(answer.error.message);
    return executeReportOf(contract, call.resource, answer);
  }

  async function status(contract: DiscoveredContract, grant: SiteGrant, statusUrl: string, resource?: ResourceRef): Promise<ExecutionReport> {
    const url = sameOriginUrl(contract, statusUrl);
    if (url === undefined) return { outcome: 'failed', message: 'the status URL is not on the contract origin: Steward will not ask there', side_effect_possible: true };
    const problem = grantProblem(contract, grant, key.keyid, now());
    if (problem) return { outcome: 'failed', message: `the outcome can no longer be asked for: ${problem}`, side_effect_possible: true };
    const answer = await send(contract, { method: 'GET', url, token: grant.grant.token });
    return statusReportOf(contract, url, resource, answer);
  }

  async function requestGrant(contract: DiscoveredContract, request: GrantRequest): Promise<Result<SiteGrant, SiteCallError>> {
    const auth = contract.contract.auth;
    const offered = new Set(auth.scopes.map((s) => s.scope));
    const unoffered = request.scopes.filter((s) => !offered.has(s));
    if (unoffered.length > 0) return notSentError(`${contract.contract.site.name} does not offer ${unoffered.join(', ')}`);
    const body = TokenRequest.safeParse({
      agent_key: key.publicJwk,
      agent_name: request.agent_name,
      scopes: request.scopes,
      resource_scope: request.resource_scope,
      payment: request.payment,
      // The site's ceiling, not an error: the person asked for "as long as allowed".
      expires_in_s: Math.min(request.expires_in_s, auth.max_token_ttl_s),
    });
    if (!body.success) return notSentError(shapeError(0, 'the token request', body.error.issues).message);
    const url = endpointUrl(contract, contract.contract.endpoints.token);
    if (url === undefined) return notSentError('the token endpoint does not stay on the contract origin');
    const answer = await send(contract, { method: 'POST', url, body: JSON.stringify(body.data), withCredentials: true });
    if (answer.kind === 'failed') return { ok: false, error: answer.error };
    if (answer.status !== 200 && answer.status !== 201) return { ok: false, error: siteRefusal(answer.status, answer.json) };
    const parsed = TokenGrant.safeParse(answer.json);
    if (!parsed.success) return { ok: false, error: shapeError(answer.status, "the site's token grant", parsed.error.issues) };
    const mismatch = grantMismatch(parsed.data, body.data, key.keyid, now());
    if (mismatch) return { ok: false, error: { code: 'bad_response', status: answer.status, message: `the site's grant does not match the request: ${mismatch}` } };
    return { ok: true, value: { origin: contract.origin, contract_url: contract.contract_url, grant: parsed.data, granted_at: now() } };
  }

  async function revoke(contract: DiscoveredContract, grant: SiteGrant): Promise<Result<void, SiteCallError>> {
    if (grant.origin !== contract.origin) return notSentError(`the grant is for ${grant.origin}, not ${contract.origin}`);
    const url = endpointUrl(contract, contract.contract.endpoints.revoke);
    if (url === undefined) return notSentError('the revoke endpoint does not stay on the contract origin');
    const body: RevokeRequest = { token_id: grant.grant.token_id };
    const answer = await send(contract, { method: 'POST', url, body: JSON.stringify(body), token: grant.grant.token });
    if (answer.kind === 'failed') return { ok: false, error: answer.error };
    if (answer.status === 200) {
      return RevokeAnswer.safeParse(answer.json).success
        ? { ok: true, value: undefined }
        : { ok: false, error: { code: 'bad_response', status: 200, message: 'the site did not say the token is revoked' } };
    }
    const refusal = siteRefusal(answer.status, answer.json);
    if (refusal.code === 'refused') {
      const reason = refusalReason(refusal.site_error);
      if (reason === 'token_revoked' || reason === 'token_expired') return { ok: true, value: undefined };
    }
    return { ok: false, error: refusal };
  }

  return { readState, execute, status, requestGrant, revoke };
}

/** What the site granted must be what the person consented to, or less, and bound to Steward's key. */
function grantMismatch(grant: TokenGrant, asked: TokenRequest, keyid: string, now: number): string | undefined {
  if (grant.key_thumbprint !== keyid) return "it is bound to another key than Steward's";
  const extraScopes = grant.scopes.filter((s) => !asked.scopes.includes(s));
  if (extraScopes.length > 0) return `scopes not asked for: ${extraScopes.join(', ')}`;
  const extraResources = grant.resource_scope.filter((s) => !asked.resource_scope.includes(s));
  if (extraResources.length > 0) return `resources not asked for: ${extraResources.join(', ')}`;
  if (grant.payment && !asked.payment) return 'payment was not asked for';
  if (Date.parse(grant.expires_at) <= now) return 'it has already expired';
  return undefined;
}
