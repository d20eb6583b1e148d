import { z } from 'zod';
import { AvailableAction } from './action.ts';
import { ActionName, DomActionName, IdempotencyKey } from './action-name.ts';
import { ElementRef } from './element.ts';
import { Reply, type RequestMap } from './channel.ts';
import { ExpectedEffect } from './expectation.ts';
import { AgentId, HttpUrl, IsoDateTime, Origin } from './primitives.ts';
import { ResourceRef, ResourceScope, StateName, StateVersion } from './resource.ts';
import { Phrase } from './phrase.ts';
import { ActionResult } from './results.ts';
import { AuditExportBatch, AuditExportResult } from './audit-export.ts';
import { ScopeEntry, TokenId, TokenSecret } from './token.ts';
import { McpSession } from './mcp-session.ts';

/**
 * The link between Steward's service worker and the MCP bridge (the `bridge/` folder), over
 * Chrome native messaging: only Steward may start the host (its manifest's allowed_origins names
 * Steward's id alone), and the host meets the MCP server processes on a per-user socket (0600).
 * Shared by both ends: the worker validates every message the host sends with these schemas, and
 * the bridge validates every answer. A message that does not fit is refused, never guessed at.
 *
 * What crosses: an MCP client's calls, each carrying the Steward token secret that pairing gave
 * that client (the worker authenticates it on every call, so a revocation takes effect on the
 * next one) and, with a call that acts, which of the client's sessions it belongs to (the bridge
 * mints it per connection: mcp-session.ts); and pairing itself. Nothing here lets the bridge
 * approve, mint or read the audit log: those stay with the person in the side panel.
 */

/** The native-messaging host's name (its manifest's file name, and what the worker connects to). */
export const BRIDGE_HOST_NAME = 'com.steward.bridge';

/** Chrome refuses a message from a native host over 1 MB; the host splits nothing, so it keeps requests small. */
export const HOST_TO_EXTENSION_MAX_BYTES = 1024 * 1024;
/** What the worker sends back is bounded too, well under Chrome's 64 MB (renderings are capped far lower). */
export const EXTENSION_TO_HOST_MAX_BYTES = 8 * 1024 * 1024;

/** An MCP client as it named itself in `initialize` (clientInfo), with how it reached the bridge. */
export const McpClientInfo = z.object({
  name: z.string().min(1).max(120),
  version: z.string().max(60).optional(),
  title: z.string().max(120).optional(),
  transport: z.enum(['stdio', 'http']),
});
export type McpClientInfo = z.infer<typeof McpClientInfo>;

/**
 * A key the organisation issued to an MCP client (policy `mcpClientKeys`), as the client's bridge
 * presents it when asking to pair: given to `steward-bridge` with --client-key-file or
 * STEWARD_CLIENT_KEY. Steward keeps only its SHA-256.
 */
export const ClientKey = z.string().regex(/^[\x21-\x7e]{16,512}$/, 'must be 16 to 512 printable characters without spaces');

/** SHA-256, 64 lower-case hex digits. */
const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** The client as Steward keeps its pairing request: what it said, and the SHA-256 of the key it presented, if any. */
export const PairingClient = McpClientInfo.extend({ key_sha256: Sha256Hex.optional() });
export type PairingClient = z.infer<typeof PairingClient>;

/** The pairing's short code, shown by the MCP client and entered by the person in the side panel: `483-192`. */
export const PairingCode = z.string().regex(/^\d{3}-\d{3}$/, 'must be a pairing code like 483-192');
export type PairingCode = z.infer<typeof PairingCode>;

export const PairingId = z.string().regex(/^pair_[A-Za-z0-9_-]{8,64}$/, 'must be a pairing id (pair_…)');
export type PairingId = z.infer<typeof PairingId>;

/** Known only to the bridge process that asked for the pairing: it alone may collect the token. */
export const ClaimSecret = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

/** Every agent call carries who is calling: the paired client's agent id and its token secret. */
const Auth = z.object({ agent_id: AgentId, token: z.string().min(1).max(256) });

const tabId = z.number().int().nonnegative();

/** A tab an agent may see (its origin is one of the person's allowed sites and one of the token's origins). */
export const BridgeTab = z.object({
  tab_id: tabId,
  url: z.string().max(4096),
  title: z.string().max(512),
  origin: Origin,
  active: z.boolean(),
  /** What Steward last saw there, when it has looked: the resource, its state and version. */
  resource: ResourceRef.extend({ state: StateName.optional(), state_version: StateVersion.optional() }).optional(),
});
export type BridgeTab = z.infer<typeof BridgeTab>;

/** An available action as an agent sees it: the observation's entry (schema, risk) and whether this agent's next call would need the person. */
const BridgeAction = AvailableAction.and(z.object({ needs_approval: z.boolean() }));

const StepRefs = z.array(ElementRef).max(1000);

/**
 * A DOM step as steward_actions lists it (issue 26): once, with its input in signature form and
 * the elements it is offered on, instead of one JSON Schema per element; which of those need the
 * person and which touch payment. `unbound`: offered without an element too (going to a URL,
 * scrolling the page), and whether that needs the person.
 */
const BridgeDomStep = z.object({
  action: DomActionName,
  input: z.string().max(200),
  refs: StepRefs,
  needs_approval: StepRefs,
  payment: StepRefs,
  unbound: z.object({ needs_approval: z.boolean() }).optional(),
});

const ObserveSummary = z.object({
  url: z.string().max(4096),
  title: z.string().max(512),
  resource: ResourceRef.nullable(),
  state: StateName.nullable(),
  state_version: StateVersion.nullable(),
  source: z.string().max(64),
  confidence: z.number().min(0).max(1),
  conflicts: z.array(z.string().max(128)).max(64),
  /** identified | guessed | unknown, in Steward's words when it could not tell. */
  resource_identity: z.string().max(2000).optional(),
});

const Unfinished = z.object({
  action_id: z.string().max(128),
  action: z.string().max(256),
  resource: ResourceRef,
  status: z.string().max(64),
  idempotency_key: z.string().max(256),
  updated_at: IsoDateTime,
});

const KnownResource = z.object({ resource: ResourceRef, last_state: StateName.optional(), seen_at: IsoDateTime, url_hint: z.string().max(4096).optional() });

/** The longest a pairing claim may wait for the person's decision. */
export const PAIR_CLAIM_WAIT_MAX_MS = 50_000;

/** The longest a status call may wait: under the 60 s an MCP client waits for a tool call by default. */
export const ACTION_STATUS_WAIT_MAX_MS = 50_000;

export const BridgeRequests = {
  // ── pairing: the first call of a client without a token ────────────────────────────────────
  /** Opens a pairing request in the side panel. The code goes to the MCP client; the claim secret stays in the bridge. */
  'bridge/pair-request': {
    request: z.object({
      client: McpClientInfo,
      /**
       * Which client of this bridge process asks (the HTTP server's: the bearer it came with), so
       * Steward counts requests per source; the host connection is the rest of the source.
       */
      source: z.string().min(1).max(160).optional(),
      /**
       * The bridge keeps the claim secret beyond this process (the client's credential file), so the
       * request outlives the connection: a one-shot client's next run, or `steward-bridge pair`, collects it.
       */
      keep: z.boolean().default(false),
      /** The organisation's key for this client, when it was given one (checked against policy `mcpClientKeys`, never stored). */
      client_key: ClientKey.optional(),
    }),
    reply: z.object({ pairing_id: PairingId, code: PairingCode, claim_secret: ClaimSecret, expires_at: IsoDateTime }),
  },
  /** Collects the outcome once: pending, or the token the person granted (its secret, in this one reply). PAIRING_REFUSED / PAIRING_EXPIRED / PAIRING_UNKNOWN otherwise. */
  'bridge/pair-claim': {
    request: z.object({
      pairing_id: PairingId,
      claim_secret: ClaimSecret,
      /** While pending, the worker holds the answer up to this long until the person decides (told by the pairing book, not polled). */
      wait_ms: z.int().min(0).max(PAIR_CLAIM_WAIT_MAX_MS).default(0),
    }),
    reply: z.discriminatedUnion('status', [
      z.object({ status: z.literal('pending'), code: PairingCode, expires_at: IsoDateTime }),
      z.object({
        status: z.literal('paired'),
        agent_id: AgentId,
        token_id: TokenId,
        token: TokenSecret,
        scope: z.array(ScopeEntry),
        origins: z.array(Origin),
        resource_scope: ResourceScope,
        expires_at: IsoDateTime,
      }),
    ]),
  },
  // ── the agent's calls (MCP tools) ──────────────────────────────────────────────────────────
  'bridge/tabs': { request: z.object({ auth: Auth }), reply: z.object({ tabs: z.array(BridgeTab).max(200) }) },
  'bridge/open': {
    request: z.object({ auth: Auth, url: HttpUrl, new_tab: z.boolean().default(false) }),
    reply: z.object({ tab: BridgeTab, created: z.boolean() }),
  },
  'bridge/observe': {
    request: z.object({
      auth: Auth,
      tab_id: tabId,
      /** Look for elements by text, role or name instead of the whole page. */
      query: z
        .object({ text: z.string().max(1024).optional(), role: z.string().max(64).optional(), name: z.string().max(1024).optional(), limit: z.number().int().min(1).max(200).optional() })
        .strict()
        .optional(),
      /** Expand one element (a container or a truncated text) by its ref. */
      expand: z.string().max(64).optional(),
    }),
    /** `steps`: the DOM steps offered here (a whole-page rendering only), which the bridge names once outside the page's text. */
    reply: z.object({ tab: BridgeTab, summary: ObserveSummary, rendering: z.string().max(400_000), steps: z.array(DomActionName).max(DomActionName.options.length).optional() }),
  },
  /** The site's actions (contract, WebMCP, adapter) in full; the DOM steps once each, with their refs. */
  'bridge/actions': {
    request: z.object({ auth: Auth, tab_id: tabId }),
    reply: z.object({ tab: BridgeTab, actions: z.array(BridgeAction).max(512), steps: z.array(BridgeDomStep).max(DomActionName.options.length) }),
  },
  /** An ActionRequest as the pipeline takes it (the pipeline validates it: INVALID_INPUT is a result). Never waits for the person: APPROVAL_REQUIRED comes back at once. */
  'bridge/execute': {
    request: z.object({
      auth: Auth,
      tab_id: tabId.optional(),
      request: z.unknown(),
      untrusted_input: z.boolean().default(false),
      expect: ExpectedEffect.optional(),
      /** The client's session this call belongs to (src/protocol/mcp-session.ts): minted by the bridge, recorded with the action's audit entries. */
      session: McpSession.optional(),
    }),
    reply: z.object({ result: ActionResult }),
  },
  'bridge/action-status': {
    request: z.object({
      auth: Auth,
      action_id: z.string().min(1).max(128),
      /** Up to this long, the worker holds the answer until the person decides or the action ends (told by the pipeline, not polled). */
      wait_ms: z.int().min(0).max(ACTION_STATUS_WAIT_MAX_MS).default(0),
    }),
    reply: z.object({ result: ActionResult }),
  },
  'bridge/memory': { request: z.object({ auth: Auth }), reply: z.object({ unfinished: z.array(Unfinished).max(200), resources: z.array(KnownResource).max(500) }) },
  /**
   * The WebMCP tools of the caller's current tab (the one it last opened or observed), which the
   * bridge offers as MCP tools of their own; `tab: null` when it has none it may use. Debugging
   * tools only when the person shows them. The page's words: the caller is tainted when any are listed.
   */
  'bridge/page-tools': {
    request: z.object({ auth: Auth }),
    reply: z.object({ tab: BridgeTab.nullable(), tools: z.array(BridgeAction).max(128) }),
  },
  /**
   * One of those tools, called by name on that tab: the tab is observed afresh for its resource,
   * then the request goes through the same submit as bridge/execute (token, scope, approvals,
   * idempotency, audit, taint). TOOL_NOT_FOUND when the tab's page no longer offers it.
   */
  'bridge/page-tool-call': {
    request: z.object({ auth: Auth, tab_id: tabId, tool: ActionName, input: z.record(z.string(), z.unknown()), idempotency_key: IdempotencyKey, session: McpSession.optional() }),
    reply: z.object({ result: ActionResult }),
  },
  /** The visible part of a tab (the current one unless named) as an image; it must be the tab showing in its window. */
  'bridge/screenshot': {
    request: z.object({ auth: Auth, tab_id: tabId.optional() }),
    reply: z.object({
      tab: BridgeTab,
      mime_type: z.enum(['image/png', 'image/jpeg']),
      data: z
        .string()
        .regex(/^[A-Za-z0-9+/]*={0,2}$/)
        .max(6 * 1024 * 1024),
      width: z.number().int().nonnegative().optional(),
      height: z.number().int().nonnegative().optional(),
    }),
  },
} satisfies RequestMap;
export type BridgeRequests = typeof BridgeRequests;

/*
 * Refusal codes the bridge adds to Steward's (src/protocol/errors.ts): PAIRING_REQUIRED (no token
 * yet: a pairing request is open in the side panel), PAIRING_REFUSED, PAIRING_EXPIRED,
 * PAIRING_UNKNOWN, PAIRING_CODE_MISMATCH (panel only), STEWARD_UNAVAILABLE (the browser, Steward or
 * the native host is not connected right now), SITE_NOT_ALLOWED, TAB_NOT_FOUND, ACTION_NOT_FOUND,
 * REQUEST_TOO_LARGE, REPLY_TOO_LARGE.
 */

// ── native messaging envelope (host ↔ worker) ───────────────────────────────────────────────
const CallId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** One MCP server process's connection to the host (so the worker can forget its pairings when it goes). */
const ConnId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const HostToExtension = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hello'), host_version: z.string().max(60), protocol: z.literal(1) }),
  z.object({ kind: z.literal('call'), id: CallId, conn: ConnId, message: z.unknown() }),
  z.object({ kind: z.literal('conn-closed'), conn: ConnId }),
  /** The collector took (or did not take) a batch of audit entries (src/protocol/audit-export.ts). */
  AuditExportResult,
]);
export type HostToExtension = z.infer<typeof HostToExtension>;

/**
 * What Steward tells every MCP server process without being asked: only that something they may
 * want to look at again changed (a tab's page tools), never content; each process asks again with
 * its own token, and sees only what that token allows.
 */
export const BridgeEvent = z.discriminatedUnion('type', [z.object({ type: z.literal('page-tools-changed'), tab_id: tabId })]);
export type BridgeEvent = z.infer<typeof BridgeEvent>;

export const ExtensionToHost = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hello'), extension_version: z.string().max(60), protocol: z.literal(1) }),
  z.object({ kind: z.literal('reply'), id: CallId, conn: ConnId, reply: Reply(z.unknown()) }),
  z.object({ kind: z.literal('event'), event: BridgeEvent }),
  /** Audit entries for the organisation's syslog collector: the host sends them and answers `audit-export-result`. */
  AuditExportBatch,
]);
export type ExtensionToHost = z.infer<typeof ExtensionToHost>;

/** How the side panel shows a pairing request waiting for the person. */
export const PairingView = z.object({
  pairing_id: PairingId,
  client: PairingClient,
  requested_at: IsoDateTime,
  expires_at: IsoDateTime,
  /** Wrong codes entered so far (three end the request). */
  wrong_codes: z.number().int().nonnegative(),
  /** Where the request came from (one bridge process, and for HTTP the bearer): requests of one source can be refused together. */
  source: z.string().min(1).max(240),
});
export type PairingView = z.infer<typeof PairingView>;

/** What the person grants a client when accepting (the Tokens view's mint fields). */
export const PairingGrant = z.object({
  scope: z.array(ScopeEntry).min(1).max(64),
  origins: z.array(Origin).min(1).max(32),
  resource_scope: ResourceScope.default('*'),
  payment: z.boolean().default(false),
  ttl_ms: z.number().int().positive(),
});
export type PairingGrant = z.infer<typeof PairingGrant>;

/** The link's state as the side panel's Settings shows it. */
export const BridgeStatus = z.object({
  connected: z.boolean(),
  host_version: z.string().max(60).optional(),
  /** Why it is not connected: the host is not installed, it exited, … */
  problem: z.string().max(1000).optional(),
  /** `problem` as a phrase, for Settings to say in the person's language (src/protocol/phrase.ts). */
  problem_said: Phrase.optional(),
  since: IsoDateTime.optional(),
});
export type BridgeStatus = z.infer<typeof BridgeStatus>;

/** Steward's extension id, fixed by the manifest's public key: the only origin the native host's manifest allows. */
export const STEWARD_EXTENSION_ID = 'iodcoaibgikagkbaifmcklmipgpmmcip';
