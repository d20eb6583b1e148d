import { z } from 'zod';
import { ActionName } from './action-name.ts';
import { ActionListItem } from './action.ts';
import { ErrorBody } from './errors.ts';
import { InputHash, IsoDateTime, JsonObject, SnakeCase } from './primitives.ts';
import { Effect } from './results.ts';
import { ResourceId, ResourceRef, ResourceScope, ResourceType, StateName } from './resource.ts';
import { JsonSchemaObject } from './webmcp.ts';
import { Phrase } from './phrase.ts';

/**
 * The contract path's wire format (DESIGN §6; the spec a site implements is docs/agent-contract.md):
 * the Semantic State Contract a site publishes, and the Agent Action API's requests and answers.
 * One module for both sides, so the reference shop (sites/shop/agent/) and Steward's client
 * (src/contract/) cannot drift apart. Everything a site sends is untrusted input to Steward and
 * everything an agent sends is untrusted input to the site: both parse with these schemas.
 */

const CONTRACT_SPEC_VERSION = 'steward-contract/1';
/** `<link rel="agent-contract" href="…">` and `Link: <…>; rel="agent-contract"`. */
export const CONTRACT_LINK_REL = 'agent-contract';
export const CONTRACT_MEDIA_TYPE = 'application/agent-contract+json';
/** Web Bot Auth's key directory path (draft-meunier-http-message-signatures-directory). */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

/** A contract's integer state version: the site's own counter, increasing on every change. */
const SiteStateVersion = z.int({ error: 'must be a non-negative integer' }).nonnegative('must be a non-negative integer');

/** A site's id for an action it ran (its own namespace, not Steward's). */
const SiteActionId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, 'must be 1–128 characters of letters, digits, "_", ".", ":" or "-"');

/** An endpoint: an absolute path on the contract's own origin (`/agent/v1/…`), optionally with `{type}`, `{id}`, `{action_id}`. */
const EndpointPath = z
  .string()
  .max(512)
  .regex(/^\/(?!\/)[A-Za-z0-9._~!$&'()*+,;=:@%/{}-]*$/, 'must be an absolute path on the same origin, e.g. /agent/v1/actions/execute');

/** A scope the site grants: `<namespace>:<verb>` (`orders:cancel`, `orders:read`). */
const ContractScope = z.string().regex(/^[a-z][a-z0-9_]*:(?:\*|[a-z][a-z0-9_]*)$/, 'must look like orders:cancel or orders:*');

// ── The contract document ──────────────────────────────────────────────────────────────────────

const ContractState = z.object({
  name: StateName,
  title: z.string().max(256),
  /** No action leaves it (`cancelled`, `delivered` for cancellation purposes is not terminal). */
  terminal: z.boolean().default(false),
});

const ContractResource = z.object({
  type: ResourceType,
  title: z.string().max(256),
  /** Scope namespace of its actions and reads: reading needs `<namespace>:read`. */
  scope_namespace: z.string().regex(/^[a-z][a-z0-9_]*$/),
  states: z.array(ContractState).min(1).max(128),
  /** The person-facing page of one resource (`/orders/{id}`): how a tab is matched to a resource. */
  page_path_template: EndpointPath.optional(),
});

export const ContractAction = z
  .object({
    name: ActionName,
    resource_type: ResourceType,
    title: z.string().max(256),
    /** Site-written text: data, never instructions. */
    description: z.string().max(4096).optional(),
    read_only: z.boolean(),
    consequential: z.boolean(),
    /** Touches money: the token must carry `payment: true`. */
    payment: z.boolean().default(false),
    /** The site wants proof the person approved this exact call (an approval receipt in the request). */
    requires_approval: z.boolean(),
    /** Effect types it produces (`order_cancelled`). */
    changes: z.array(SnakeCase).max(64).default([]),
    /** States in which the site accepts it; elsewhere it answers 412 PRECONDITION_FAILED. */
    allowed_in_states: z.array(StateName).min(1).max(128),
    input_schema: JsonSchemaObject,
    /** May answer 202 accepted and confirm later (poll `action_status`). */
    may_be_async: z.boolean().default(false),
  })
  .refine((a) => a.requires_approval || (a.read_only && !a.consequential && !a.payment), {
    message: 'an action that is not read-only, is consequential or touches payment must require approval',
    path: ['requires_approval'],
  });
export type ContractAction = z.infer<typeof ContractAction>;

const ContractEndpoints = z.object({
  /** GET → SiteResourceState. `{type}` and `{id}` are filled in, URL-encoded. */
  resource_state: EndpointPath,
  /** POST ExecuteBody → SiteActionResult (200 confirmed, 202 accepted) or SiteErrorBody. */
  execute: EndpointPath,
  /** GET → SiteActionResult for an action the site accepted. `{action_id}` is filled in. */
  action_status: EndpointPath,
  /** POST TokenRequest (the person's session + the agent's signature) → TokenGrant. */
  token: EndpointPath,
  /** POST RevokeRequest → 200 {revoked: true}. */
  revoke: EndpointPath,
  key_directory: EndpointPath.default(KEY_DIRECTORY_PATH),
});

export const AgentContract = z.object({
  spec: z.literal(CONTRACT_SPEC_VERSION),
  site: z.object({ name: z.string().min(1).max(256), origin: z.string().url().max(2048) }),
  resources: z.array(ContractResource).min(1).max(64),
  actions: z.array(ContractAction).max(256),
  endpoints: ContractEndpoints,
  auth: z.object({
    token_type: z.literal('delegated'),
    /** Request signing: HTTP Message Signatures, Web Bot Auth profile. */
    signature: z.object({
      profile: z.literal('web-bot-auth'),
      algorithms: z.array(z.literal('ed25519')).min(1),
      /** Components every signed request covers (content-digest too when there is a body). */
      required_components: z.array(z.string().max(64)).max(16),
      /** Longest `expires - created` the site accepts, seconds. */
      max_validity_s: z.int().positive().max(3600),
    }),
    scopes: z
      .array(z.object({ scope: ContractScope, title: z.string().max(256) }))
      .min(1)
      .max(128),
    max_token_ttl_s: z.int().positive(),
  }),
});
export type AgentContract = z.infer<typeof AgentContract>;

// ── State reads ────────────────────────────────────────────────────────────────────────────────

/** GET resource_state: the authoritative state, with `ETag: "<state_version>"`. */
export const SiteResourceState = z.object({
  resource: ResourceRef,
  state: StateName,
  state_version: SiteStateVersion,
  title: z.string().max(256).optional(),
  /** Structured values (site-written data, never instructions). */
  facts: z.record(SnakeCase, z.union([z.string().max(4096), z.number(), z.boolean(), z.null()])).default({}),
  /** What may be done now, in this state. */
  available_actions: z.array(ActionListItem).max(256),
  updated_at: IsoDateTime,
});
export type SiteResourceState = z.infer<typeof SiteResourceState>;

// ── Execute ────────────────────────────────────────────────────────────────────────────────────

/**
 * What Steward tells the site about the person's approval of this exact call. The signature over
 * the body is what makes it Steward's statement (an agent model never holds the key).
 */
const ApprovalReceipt = z.object({
  receipt_id: z.string().max(128),
  approved_at: IsoDateTime,
  /** sha256 of the canonical JSON of `{action, resource, input}`: binds the receipt to this call. */
  input_hash: InputHash,
});

/** POST execute's body. Headers: Authorization, Idempotency-Key, If-Match (optional), Content-Digest, signature. */
export const ExecuteBody = z.strictObject({
  action: ActionName,
  resource: z.strictObject({ type: ResourceType, id: ResourceId }),
  input: JsonObject.default({}),
  preconditions: z.strictObject({ expected_state: StateName.optional(), state_version: SiteStateVersion.optional() }).optional(),
  approval: ApprovalReceipt.optional(),
});
export type ExecuteBody = z.infer<typeof ExecuteBody>;

const SiteResourceAfter = z.object({ type: ResourceType, id: ResourceId, state: StateName, state_version: SiteStateVersion });

/** 200: the site did it. */
const SiteConfirmed = z.object({
  action_id: SiteActionId,
  resource: SiteResourceAfter,
  execution: z.object({ status: z.literal('confirmed'), certainty: z.literal('confirmed'), executed_at: IsoDateTime, verified_by: z.literal('site_contract') }),
  effects: z.array(Effect).max(64).default([]),
  available_actions: z.array(ActionListItem).max(256).default([]),
});

/** 202: accepted, not done; poll `status_url` (also sent as `Location`). */
const SiteAccepted = z.object({
  action_id: SiteActionId,
  resource: SiteResourceAfter,
  execution: z.object({ status: z.literal('accepted'), certainty: z.literal('pending_confirmation'), status_url: EndpointPath, accepted_at: IsoDateTime }),
});

/** From action_status: the site tried and it did not happen (a refund was declined). */
const SiteFailed = z.object({
  action_id: SiteActionId,
  resource: SiteResourceAfter,
  execution: z.object({ status: z.literal('failed'), certainty: z.literal('confirmed'), executed_at: IsoDateTime, error: ErrorBody }),
});

export const SiteActionResult = z.union([SiteConfirmed, SiteAccepted, SiteFailed]);
export type SiteActionResult = z.infer<typeof SiteActionResult>;

/**
 * Why the site refused a token or signature (401 TOKEN_INVALID's `error.details.reason`), so the
 * person is told what to fix: sign in and connect again, or nothing an agent can do.
 */
export const AuthRefusalReason = z.enum([
  'token_missing',
  'token_malformed',
  'token_expired',
  'token_revoked',
  'signature_missing',
  'signature_invalid',
  'signature_expired',
  'key_mismatch',
  'nonce_replayed',
  'digest_mismatch',
  'login_required',
]);
export type AuthRefusalReason = z.infer<typeof AuthRefusalReason>;

/**
 * Every refusal: DESIGN §3's error form. HTTP status ↔ code: 400 INVALID_INPUT, 401 TOKEN_INVALID,
 * 403 SCOPE_DENIED / APPROVAL_REQUIRED, 404 TOOL_NOT_FOUND (unknown action or resource),
 * 409 IN_PROGRESS, 412 PRECONDITION_FAILED, 422 IDEMPOTENCY_CONFLICT, 429 QUOTA_EXCEEDED.
 */
export const SiteErrorBody = z.object({
  error: ErrorBody,
  expected: z.object({ state: StateName.optional(), state_version: SiteStateVersion.optional() }).optional(),
  current: z.object({ state: StateName, state_version: SiteStateVersion }).optional(),
  available_actions: z.array(ActionListItem).max(256).optional(),
});
export type SiteErrorBody = z.infer<typeof SiteErrorBody>;

// ── Tokens ─────────────────────────────────────────────────────────────────────────────────────

/** An Ed25519 public key as a JWK (no private part, ever). */
export const AgentPublicJwk = z.strictObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 32-byte base64url Ed25519 public key'),
  kid: z.string().max(128).optional(),
  alg: z.literal('EdDSA').optional(),
  use: z.literal('sig').optional(),
  key_ops: z.array(z.literal('verify')).optional(),
  ext: z.boolean().optional(),
});
export type AgentPublicJwk = z.infer<typeof AgentPublicJwk>;

/** POST token: sent with the person's session (cookie) and signed by the key it names. */
export const TokenRequest = z.strictObject({
  agent_key: AgentPublicJwk,
  agent_name: z.string().min(1).max(128),
  scopes: z.array(ContractScope).min(1).max(64),
  /** `order:*`, `order:ORD-1024`, or `*`. */
  resource_scope: z.array(ResourceScope).min(1).max(64),
  payment: z.boolean(),
  expires_in_s: z.int().positive(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenGrant = z.object({
  token_type: z.literal('Bearer'),
  /** A JWS the site signed (claims: scope, resource_scope, payment, cnf.jkt, exp, jti). Opaque to Steward. */
  token: z.string().min(16).max(8192),
  token_id: z.string().min(1).max(128),
  scopes: z.array(ContractScope).min(1).max(64),
  resource_scope: z.array(ResourceScope).min(1).max(64),
  payment: z.boolean(),
  expires_at: IsoDateTime,
  /** RFC 7638 thumbprint of the agent key the token is bound to (the signature's `keyid`). */
  key_thumbprint: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** Who the person is on the site, for the panel ("Jordan Lee"). */
  granted_by: z.string().max(256),
});
export type TokenGrant = z.infer<typeof TokenGrant>;

/** POST revoke: by the agent (its own token, signed) or by the person (session). */
export const RevokeRequest = z.strictObject({ token_id: z.string().min(1).max(128) });
export type RevokeRequest = z.infer<typeof RevokeRequest>;

// ── Side panel ↔ worker (src/protocol/panel-channel.ts) ────────────────────────────────────────

/** What the side panel shows about one site's contract: offered, connected, or ended. */
export const ContractSiteView = z.object({
  origin: z.string().url().max(2048),
  site_name: z.string().max(256),
  contract_url: z.string().url().max(2048),
  /** The scopes the site offers, to tick on the consent form. */
  offered_scopes: z.array(z.object({ scope: ContractScope, title: z.string().max(256) })).max(128),
  resource_types: z.array(ResourceType).max(64),
  has_payment_actions: z.boolean(),
  max_token_ttl_s: z.int().positive(),
  /** The grant Steward holds (no token: the panel never sees it). */
  connection: z
    .discriminatedUnion('status', [
      z.object({ status: z.literal('none') }),
      z.object({
        status: z.literal('connected'),
        token_id: z.string().max(128),
        scopes: z.array(ContractScope),
        resource_scope: z.array(ResourceScope),
        payment: z.boolean(),
        expires_at: IsoDateTime,
        granted_by: z.string().max(256),
        key_thumbprint: z.string().max(64),
      }),
      /** The site refused the token (revoked, expired, key mismatch): the person connects again. */
      z.object({
        status: z.literal('ended'),
        reason: z.string().max(64),
        message: z.string().max(1024),
        /** `message` as a phrase for the panel; one that does not fit is dropped and the English shown. */
        message_said: Phrase.optional().catch(undefined),
        at: IsoDateTime,
      }),
    ])
    .default({ status: 'none' }),
});
export type ContractSiteView = z.infer<typeof ContractSiteView>;

/** The person's consent, from the panel's form. */
export const ContractConnectRequest = z.strictObject({
  origin: z.string().url().max(2048),
  scopes: z.array(ContractScope).min(1).max(64),
  resource_scope: z.array(ResourceScope).min(1).max(64),
  payment: z.boolean(),
  expires_in_s: z
    .int()
    .positive()
    .max(30 * 24 * 3600),
});
export type ContractConnectRequest = z.infer<typeof ContractConnectRequest>;

/** A connect or disconnect that did not work, said plainly (`login_required`: sign in to the site first). */
export const ContractPanelError = z.object({
  code: z.string().max(64),
  message: z.string().max(2048),
  /** `message` as a phrase for the panel (src/protocol/phrase.ts); one that does not fit is dropped and the English shown. */
  said: Phrase.optional().catch(undefined),
});
