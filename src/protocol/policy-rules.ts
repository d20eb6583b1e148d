import { actionMatches, siteMatches, PROMPT_API_ENDPOINT, type Policy } from './managed-policy.ts';
import { modelServerOrigin, type Settings } from './settings.ts';
import type { AuditExportTarget } from './audit-export.ts';

/**
 * The organisation's policy against what the person chose: every rule here can only take away
 * (a site, a client, an endpoint, minutes of a lifetime) or add a check, so the person can be
 * stricter than the policy, never looser. Pure; the service worker's doors and the side panel
 * ask the same functions.
 */

export type SiteVerdict = { ok: true } | { ok: false; reason: 'blocked' | 'not_allowed'; message: string };

/** Whether the organisation lets Steward read and act on this origin at all (the person's list is asked apart). */
export function siteVerdict(policy: Policy, origin: string): SiteVerdict {
  const blocked = policy.blockedSites.find((p) => siteMatches(p, origin));
  if (blocked) return { ok: false, reason: 'blocked', message: `Your organisation blocks Steward on ${origin} (${blocked.text}).` };
  if (policy.allowedSites && !policy.allowedSites.some((p) => siteMatches(p, origin))) {
    return { ok: false, reason: 'not_allowed', message: `Your organisation allows Steward only on the sites it lists, and ${origin} is not one of them.` };
  }
  return { ok: true };
}

/** The person's allowed sites that the policy lets stand, and those it takes away. */
export function combineSites(personAllowed: readonly string[], policy: Policy): { allowed: string[]; refused: string[] } {
  const allowed: string[] = [];
  const refused: string[] = [];
  for (const origin of personAllowed) (siteVerdict(policy, origin).ok ? allowed : refused).push(origin);
  return { allowed, refused };
}

export type ActionVerdict = { kind: 'frozen'; pattern: string; until?: number } | { kind: 'needs_approval'; pattern: string } | { kind: 'free' };

/** Frozen now (refused, no approval can lift it), always needing the person's approval, or neither. */
export function actionVerdict(policy: Policy, action: string, now: number): ActionVerdict {
  const frozen = policy.frozenActions.find((f) => actionMatches(f.pattern, action) && (f.from === undefined || now >= f.from) && (f.until === undefined || now < f.until));
  if (frozen) return { kind: 'frozen', pattern: frozen.pattern.text, ...(frozen.until !== undefined ? { until: frozen.until } : {}) };
  const approval = policy.approvalRequiredActions.find((p) => actionMatches(p, action));
  return approval ? { kind: 'needs_approval', pattern: approval.text } : { kind: 'free' };
}

export type PairingVerdict = { ok: true } | { ok: false; message: string };

/**
 * Whether an MCP client of this name may ask to pair (the person still enters its code), and
 * whether a paired one may go on. `keySha256`: the SHA-256 of the key it presented when it asked
 * (hashed by Steward from the key itself: knowing the policy's hashes gives a client nothing).
 */
export function pairingVerdict(policy: Policy, clientName: string, keySha256?: string): PairingVerdict {
  if (!policy.mcpPairing) return { ok: false, message: 'Your organisation does not allow MCP clients to pair with Steward in this browser.' };
  const name = clientName.trim().toLowerCase();
  const shown = `"${clientName.slice(0, 120)}"`;
  if (policy.allowedMcpClients && !policy.allowedMcpClients.includes(name)) {
    return { ok: false, message: `Your organisation does not allow the MCP client ${shown} to pair with Steward.` };
  }
  if (policy.mcpClientKeys && !policy.mcpClientKeys.some((k) => k.name === name && k.sha256 === keySha256)) {
    return keySha256 === undefined
      ? { ok: false, message: `Your organisation lets MCP clients pair only with a key it issued, and ${shown} presented none.` }
      : { ok: false, message: `The key ${shown} presented is not one your organisation issued for that name.` };
  }
  return { ok: true };
}

/** Which policy key refused a pairing (for the error's details). */
export function pairingRule(policy: Policy, clientName: string): 'mcpPairing' | 'allowedMcpClients' | 'mcpClientKeys' {
  if (!policy.mcpPairing) return 'mcpPairing';
  return policy.allowedMcpClients && !policy.allowedMcpClients.includes(clientName.trim().toLowerCase()) ? 'allowedMcpClients' : 'mcpClientKeys';
}

export type ModelVerdict = { ok: true } | { ok: false; reason: 'copilot_off' | 'endpoint_not_allowed'; message: string };

/** Whether the co-pilot may run with this model setting. */
export function modelVerdict(policy: Policy, copilot: Pick<Settings['copilot'], 'provider' | 'endpoint'>): ModelVerdict {
  if (!policy.copilotEnabled) return { ok: false, reason: 'copilot_off', message: 'Your organisation has turned the co-pilot off in this browser.' };
  if (!policy.allowedModelEndpoints) return { ok: true };
  if (copilot.provider === 'prompt-api') {
    return policy.allowedModelEndpoints.includes(PROMPT_API_ENDPOINT)
      ? { ok: true }
      : { ok: false, reason: 'endpoint_not_allowed', message: 'Your organisation does not allow Chrome’s built-in model for the co-pilot.' };
  }
  const endpoint = endpointOf(copilot);
  const allowed = endpoint !== undefined && policy.allowedModelEndpoints.some((prefix) => prefix !== PROMPT_API_ENDPOINT && endpointUnder(endpoint, prefix));
  return allowed
    ? { ok: true }
    : { ok: false, reason: 'endpoint_not_allowed', message: `Your organisation allows the co-pilot only these model endpoints: ${policy.allowedModelEndpoints.join(', ').slice(0, 600)}.` };
}

/** The endpoint the co-pilot would call (the provider's default when none is set). */
function endpointOf(copilot: Pick<Settings['copilot'], 'provider' | 'endpoint'>): string | undefined {
  if (copilot.endpoint) return copilot.endpoint;
  return modelServerOrigin(copilot);
}

/** Same origin, and the path at or below the allowed one (`https://gw.example/v1` covers `https://gw.example/v1/`, not `https://gw.example/v10`). */
function endpointUnder(endpoint: string, prefix: string): boolean {
  let e: URL, p: URL;
  try {
    e = new URL(endpoint);
    p = new URL(prefix);
  } catch {
    return false;
  }
  if (e.origin !== p.origin) return false;
  const base = p.pathname.replace(/\/+$/, '');
  const path = e.pathname.replace(/\/+$/, '');
  return base === '' || path === base || path.startsWith(`${base}/`);
}

/** A lifetime (ms) no longer than the policy allows for this kind of grant. */
export function clampTtlMs(policy: Policy, kind: 'token' | 'pairing', ttlMs: number): number {
  const caps = [policy.maxTokenLifetimeMinutes, kind === 'pairing' ? policy.maxPairingLifetimeMinutes : undefined].filter((m): m is number => m !== undefined);
  return caps.length ? Math.min(ttlMs, Math.min(...caps) * 60_000) : ttlMs;
}

/**
 * Where the audit goes: the organisation's target when its policy sets `auditExport` (the person
 * cannot stop or redirect what the organisation collects), else the person's own. A policy target
 * that does not read sends nothing until it is fixed: the person's target does not stand in for it.
 */
export function exportTargetInForce(policy: Policy, person: AuditExportTarget | null): { target: AuditExportTarget | null; managed: boolean } {
  if (policy.managed.includes('auditExport')) return { target: policy.auditExport ?? null, managed: true };
  return { target: person, managed: false };
}
