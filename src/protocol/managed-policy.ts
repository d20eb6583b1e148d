import { z } from 'zod';
import { ActionName } from './action-name.ts';
import { AuditExportTarget } from './audit-export.ts';

/**
 * The organisation's policy for Steward, set through Chrome's enterprise policy (Google Admin
 * console, GPO/registry, macOS profile, /etc/…/policies/managed) and read from
 * chrome.storage.managed. `parsePolicy` turns whatever is there into an effective `Policy` plus a
 * list of problems: every key is checked on its own, and a key that does not read applies its
 * strictest reading (an unreadable allow list allows no site, an unreadable block list blocks
 * every site), never its loosest. Chrome itself drops a value whose JSON type does not match
 * public/managed-schema.json before Steward sees it (chrome://policy shows that); everything
 * finer (site patterns, names, ranges, dates) is checked here. Pure.
 */

/** The keys of public/managed-schema.json; the panel and docs/ADMIN.md name them the same way. */
const POLICY_KEYS = [
  'allowedSites',
  'blockedSites',
  'mcpPairing',
  'allowedMcpClients',
  'mcpClientKeys',
  'copilotEnabled',
  'allowedModelEndpoints',
  'approvalRequiredActions',
  'frozenActions',
  'maxTokenLifetimeMinutes',
  'maxPairingLifetimeMinutes',
  'auditExport',
] as const;
type PolicyKey = (typeof POLICY_KEYS)[number];

/** `https://shop.example.com`, `https://*.example.com`, `*://intranet.example:8443`, or `*` (every site). No port: any port. */
export interface SitePattern {
  scheme: 'http' | 'https' | '*';
  /** Empty with `any`: every host. */
  host: string;
  /** `*.example.com`: the host and every subdomain. */
  subdomains: boolean;
  port?: string;
  any?: true;
  /** As the admin wrote it, for the panel. */
  text: string;
}

/** `orders.cancel`, `book_appointment`, `dom.click`, a namespace `orders.*`, or `*` (every action). */
export interface ActionPattern {
  text: string;
}

/** A key the organisation issued to an MCP client, for the name it pairs under. */
interface ClientKey {
  /** Lower case, as names are compared. */
  name: string;
  /** SHA-256 of the key, 64 lower-case hex digits. */
  sha256: string;
}

interface FrozenAction {
  pattern: ActionPattern;
  /** Epoch ms; absent: from now. */
  from?: number;
  /** Epoch ms; absent: until the policy changes. */
  until?: number;
}

export interface Policy {
  /** Absent: the person's own list decides. Present: only these sites, ever (empty: none). */
  allowedSites?: SitePattern[];
  blockedSites: SitePattern[];
  /** False: no MCP client may pair. */
  mcpPairing: boolean;
  /** Absent: any client name. Present: only clients that call themselves one of these (case-insensitive). */
  allowedMcpClients?: string[];
  /**
   * Absent: no key asked. Present: a client pairs only with a key the organisation issued for its
   * name (the list holds each key's SHA-256, so the readable policy file does not give the key away).
   */
  mcpClientKeys?: ClientKey[];
  copilotEnabled: boolean;
  /** Absent: any endpoint. Present: endpoint URL prefixes, and `chrome-prompt-api` for the browser's own model. */
  allowedModelEndpoints?: string[];
  approvalRequiredActions: ActionPattern[];
  frozenActions: FrozenAction[];
  maxTokenLifetimeMinutes?: number;
  maxPairingLifetimeMinutes?: number;
  auditExport?: AuditExportTarget;
  /** The keys the organisation set (valid or not): the panel marks them "Set by your organisation". */
  managed: PolicyKey[];
}

/** One thing wrong with the policy, machine-readable for the panel and any agent that asks. */
interface PolicyProblem {
  key: PolicyKey;
  /** Where in the key, `allowedSites[2]`. */
  path: string;
  code: 'not_a_policy_object' | 'invalid_value';
  message: string;
  /** The strict reading Steward applies instead, in words. */
  applied: string;
}

export interface ParsedPolicy {
  policy: Policy;
  problems: PolicyProblem[];
}

/** chrome.storage.local: the last reading of the managed policy Chrome gave (its raw contents), for a start at which Chrome is slow to answer. */
export const LAST_POLICY_READING_KEY = 'steward.managed_policy_last_reading';

/** No policy at all: what a person's own browser has. */
export const NO_POLICY: Policy = { blockedSites: [], mcpPairing: true, copilotEnabled: true, approvalRequiredActions: [], frozenActions: [], managed: [] };

/** The browser's own model (Chrome's Prompt API) in `allowedModelEndpoints`: nothing leaves the machine. */
export const PROMPT_API_ENDPOINT = 'chrome-prompt-api';
/** Longest lifetime a policy may cap at (Steward's own limit, 30 days). */
const MAX_MINUTES = 30 * 24 * 60;
const MAX_LIST = 500;

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$|^\[[0-9a-f:.]+\]$/;
const SITE = /^(https?|\*):\/\/(\*\.)?([^/:*]+|\[[^\]]+\])(?::(\d{1,5}))?\/?$/i;

/** One site pattern, or undefined when it does not read as one. */
function parseSitePattern(text: string): SitePattern | undefined {
  const t = text.trim();
  if (t === '*') return { scheme: '*', host: '', subdomains: true, any: true, text: t };
  const m = SITE.exec(t);
  if (!m) return undefined;
  const host = m[3]!.toLowerCase();
  if (!HOST.test(host)) return undefined;
  const port = m[4];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  return { scheme: m[1]!.toLowerCase() as SitePattern['scheme'], host, subdomains: m[2] !== undefined, ...(port !== undefined ? { port: String(Number(port)) } : {}), text: t };
}

/** Whether an origin (`https://shop.example.com:8443`) is one the pattern names. */
export function siteMatches(pattern: SitePattern, origin: string): boolean {
  if (pattern.any) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return false;
  if (pattern.scheme !== '*' && pattern.scheme !== scheme) return false;
  const host = url.hostname.toLowerCase();
  if (host !== pattern.host && !(pattern.subdomains && host.endsWith(`.${pattern.host}`))) return false;
  if (pattern.port === undefined) return true;
  return (url.port || (scheme === 'https' ? '443' : '80')) === pattern.port;
}

const ACTION_PATTERN = /^(?:\*|[a-z][a-z0-9_]*\.\*)$/;

function parseActionPattern(text: string): ActionPattern | undefined {
  const t = text.trim();
  return ACTION_PATTERN.test(t) || ActionName.safeParse(t).success ? { text: t } : undefined;
}

export function actionMatches(pattern: ActionPattern, action: string): boolean {
  if (pattern.text === '*') return true;
  if (pattern.text.endsWith('.*')) return action.startsWith(pattern.text.slice(0, -1));
  return pattern.text === action;
}

const EVERY_SITE: SitePattern = { scheme: '*', host: '', subdomains: true, any: true, text: '*' };
const EVERY_ACTION: ActionPattern = { text: '*' };

const StringList = z.array(z.string().max(2000)).max(MAX_LIST);
const Minutes = z.int().min(1, 'must be at least 1 minute').max(MAX_MINUTES, 'must be at most 30 days (43200 minutes)');
const ClientName = z.string().trim().min(1).max(120);
const IssuedKey = z.object({
  name: ClientName,
  sha256: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex digits (the SHA-256 of the key)'),
});
const Endpoint = z.union([z.literal(PROMPT_API_ENDPOINT), z.url({ protocol: /^https?$/, error: `must be an http(s) URL or ${PROMPT_API_ENDPOINT}` })]);
const When = z.iso.datetime({ offset: true, error: 'must be a date and time like 2026-12-31T18:00:00Z' });
const Frozen = z.object({ action: z.string().max(300), from: When.optional(), until: When.optional() });
/** The export's own target shape (audit-export.ts), so the policy's target is handed on as it is; a CA or a certificate name without TLS is a mistake. */
const AuditExport = AuditExportTarget.refine((t) => t.tls || (t.ca === undefined && t.server_name === undefined), { message: 'ca and server_name need tls: true' });

type Problems = PolicyProblem[];
const problem = (key: PolicyKey, path: string, message: string, applied: string, code: PolicyProblem['code'] = 'invalid_value'): PolicyProblem => ({
  key,
  path,
  code,
  message: message.slice(0, 500),
  applied,
});
const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'invalid';
};

/** A list of site patterns; entries that do not read are reported and handled by `onBad`. */
function siteList(key: PolicyKey, raw: unknown, problems: Problems, whole: string, entry: string): { list: SitePattern[]; bad: boolean } | undefined {
  const r = StringList.safeParse(raw);
  if (!r.success) {
    problems.push(problem(key, key, `must be a list of sites (at most ${MAX_LIST}): ${firstIssue(r.error)}`, whole));
    return undefined;
  }
  const list: SitePattern[] = [];
  let bad = false;
  r.data.forEach((text, i) => {
    const p = parseSitePattern(text);
    if (p) list.push(p);
    else {
      bad = true;
      problems.push(problem(key, `${key}[${i}]`, `"${text.slice(0, 200)}" is not a site like https://shop.example.com or https://*.example.com`, entry));
    }
  });
  return { list, bad };
}

function actionList(key: PolicyKey, raw: unknown, problems: Problems): ActionPattern[] {
  const strict = 'every action needs the person’s approval';
  const r = StringList.safeParse(raw);
  if (!r.success) {
    problems.push(problem(key, key, `must be a list of action names: ${firstIssue(r.error)}`, strict));
    return [EVERY_ACTION];
  }
  const list: ActionPattern[] = [];
  r.data.forEach((text, i) => {
    const p = parseActionPattern(text);
    if (p) list.push(p);
    else {
      problems.push(problem(key, `${key}[${i}]`, `"${text.slice(0, 200)}" is not an action name like orders.cancel, orders.* or dom.click`, strict));
      list.push(EVERY_ACTION);
    }
  });
  return list;
}

function frozenList(raw: unknown, problems: Problems): FrozenAction[] {
  const key = 'frozenActions';
  const r = z.array(z.unknown()).max(MAX_LIST).safeParse(raw);
  if (!r.success) {
    problems.push(problem(key, key, 'must be a list of { "action": …, "until": … }', 'every action is refused'));
    return [{ pattern: EVERY_ACTION }];
  }
  return r.data.map((item, i): FrozenAction => {
    const f = Frozen.safeParse(item);
    const action = typeof (item as { action?: unknown } | null)?.action === 'string' ? parseActionPattern((item as { action: string }).action) : undefined;
    if (!action) {
      problems.push(problem(key, `${key}[${i}].action`, 'must name an action like orders.cancel, orders.* or *', 'every action is refused'));
      return { pattern: EVERY_ACTION };
    }
    if (!f.success) {
      // The action is clear, its period is not: it stays frozen with no end.
      problems.push(problem(key, `${key}[${i}]`, firstIssue(f.error), `${action.text} is refused with no end date`));
      return { pattern: action };
    }
    return { pattern: action, ...(f.data.from ? { from: Date.parse(f.data.from) } : {}), ...(f.data.until ? { until: Date.parse(f.data.until) } : {}) };
  });
}

function minutes(key: PolicyKey, raw: unknown, problems: Problems): number {
  const r = Minutes.safeParse(raw);
  if (r.success) return r.data;
  problems.push(problem(key, key, `must be a whole number of minutes: ${firstIssue(r.error)}`, 'at most 1 minute'));
  return 1;
}

function bool(key: PolicyKey, raw: unknown, problems: Problems): boolean {
  if (typeof raw === 'boolean') return raw;
  problems.push(problem(key, key, 'must be true or false', 'false'));
  return false;
}

/** chrome.storage.managed's contents (anything) → the effective policy and what was wrong with it. */
export function parsePolicy(raw: unknown): ParsedPolicy {
  const problems: Problems = [];
  if (raw === undefined || raw === null) return { policy: NO_POLICY, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    // Never happens through Chrome; if it did, nothing could be read, so nothing is allowed.
    const policy: Policy = { ...NO_POLICY, allowedSites: [], mcpPairing: false, copilotEnabled: false, managed: [...POLICY_KEYS] };
    return { policy, problems: [problem('allowedSites', '', 'the policy is not an object', 'no site, no pairing, no co-pilot', 'not_a_policy_object')] };
  }
  const o = raw as Record<string, unknown>;
  const has = (k: PolicyKey) => Object.hasOwn(o, k) && o[k] !== undefined;
  const policy: Policy = { ...NO_POLICY, managed: POLICY_KEYS.filter(has) };

  if (has('allowedSites')) {
    const r = siteList('allowedSites', o.allowedSites, problems, 'no site is allowed', 'that entry allows no site');
    policy.allowedSites = r?.list ?? [];
  }
  if (has('blockedSites')) {
    const r = siteList('blockedSites', o.blockedSites, problems, 'every site is blocked', 'every site is blocked');
    policy.blockedSites = !r || r.bad ? [EVERY_SITE] : r.list;
  }
  if (has('mcpPairing')) policy.mcpPairing = bool('mcpPairing', o.mcpPairing, problems);
  if (has('allowedMcpClients')) {
    const r = z.array(z.unknown()).max(MAX_LIST).safeParse(o.allowedMcpClients);
    if (!r.success) problems.push(problem('allowedMcpClients', 'allowedMcpClients', 'must be a list of MCP client names', 'no MCP client may pair'));
    const names: string[] = [];
    (r.success ? r.data : []).forEach((v, i) => {
      const n = ClientName.safeParse(v);
      if (n.success) names.push(n.data.toLowerCase());
      else problems.push(problem('allowedMcpClients', `allowedMcpClients[${i}]`, 'must be a client name (1–120 characters)', 'that entry allows no client'));
    });
    policy.allowedMcpClients = names;
  }
  if (has('mcpClientKeys')) {
    const r = z.array(z.unknown()).max(MAX_LIST).safeParse(o.mcpClientKeys);
    if (!r.success) problems.push(problem('mcpClientKeys', 'mcpClientKeys', 'must be a list of { name, sha256 }', 'no MCP client may pair'));
    const keys: ClientKey[] = [];
    (r.success ? r.data : []).forEach((v, i) => {
      const k = IssuedKey.safeParse(v);
      if (k.success) keys.push({ name: k.data.name.toLowerCase(), sha256: k.data.sha256.toLowerCase() });
      else problems.push(problem('mcpClientKeys', `mcpClientKeys[${i}]`, firstIssue(k.error), 'that entry lets no client pair'));
    });
    policy.mcpClientKeys = keys;
  }
  if (has('copilotEnabled')) policy.copilotEnabled = bool('copilotEnabled', o.copilotEnabled, problems);
  if (has('allowedModelEndpoints')) {
    const r = z.array(z.unknown()).max(MAX_LIST).safeParse(o.allowedModelEndpoints);
    if (!r.success) problems.push(problem('allowedModelEndpoints', 'allowedModelEndpoints', 'must be a list of endpoint URLs', 'no model endpoint is allowed'));
    const list: string[] = [];
    (r.success ? r.data : []).forEach((v, i) => {
      const e = Endpoint.safeParse(typeof v === 'string' ? v.trim() : v);
      if (e.success) list.push(e.data);
      else problems.push(problem('allowedModelEndpoints', `allowedModelEndpoints[${i}]`, firstIssue(e.error), 'that entry allows no endpoint'));
    });
    policy.allowedModelEndpoints = list;
  }
  if (has('approvalRequiredActions')) policy.approvalRequiredActions = actionList('approvalRequiredActions', o.approvalRequiredActions, problems);
  if (has('frozenActions')) policy.frozenActions = frozenList(o.frozenActions, problems);
  if (has('maxTokenLifetimeMinutes')) policy.maxTokenLifetimeMinutes = minutes('maxTokenLifetimeMinutes', o.maxTokenLifetimeMinutes, problems);
  if (has('maxPairingLifetimeMinutes')) policy.maxPairingLifetimeMinutes = minutes('maxPairingLifetimeMinutes', o.maxPairingLifetimeMinutes, problems);
  if (has('auditExport')) {
    const r = AuditExport.safeParse(o.auditExport);
    if (r.success) policy.auditExport = r.data;
    // No target Steward can trust: nothing is sent; the audit stays complete in the browser.
    else problems.push(problem('auditExport', 'auditExport', firstIssue(r.error), 'no export until the target is fixed'));
  }
  return { policy, problems };
}
