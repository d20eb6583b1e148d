import { PairingGrant } from '../../protocol/bridge.ts';
import { ScopeEntry } from '../../protocol/token.ts';
import { listErrors, splitList } from './mint-form.ts';

/**
 * A pairing card's fields → the code and the grant for `panel/pairing-decide`, or one message per
 * field saying what is wrong. Checked with the protocol's own schemas, so the card never sends
 * what the service worker would refuse (the code itself is checked there, in constant time). Pure.
 */

/** What an MCP client's token may last, in minutes (label, value). */
export const PAIRING_EXPIRIES: ReadonlyArray<readonly [string, number]> = [
  ['1 hour', 60],
  ['1 day', 24 * 60],
  ['7 days', 7 * 24 * 60],
  ['30 days', 30 * 24 * 60],
];
/** An hour, unless the person deliberately chooses longer. */
export const DEFAULT_PAIRING_EXPIRY_MINUTES = 60;
/** Reading only, unless the person deliberately lets the client act. */
export const DEFAULT_PAIRING_SCOPES = '*:read';

/** The sites ticked at first: the current tab's site when it is an allowed one, else none (the person ticks). */
export function defaultPairingSites(currentSite: string | undefined, allowedSites: readonly string[]): string[] {
  return currentSite !== undefined && allowedSites.includes(currentSite) ? [currentSite] : [];
}

const isRead = (scope: string) => scope.endsWith(':read');
const expiryLabel = (minutes: number) => PAIRING_EXPIRIES.find(([, m]) => m === minutes)?.[0] ?? `${minutes} minutes`;

/**
 * What the card grants, in words: one sentence, and each way it is wider than the narrow default
 * (this tab's site, reading, one hour, no payment), so widening is a choice the person reads. Pure.
 */
export function describePairingGrant(v: Omit<PairingFormValues, 'code'>, currentSite: string | undefined, allowedSites: readonly string[]): { summary: string; wider: string[] } {
  const scopes = splitList(v.scopes);
  const readOnly = scopes.length > 0 && scopes.every(isRead);
  const where = v.sites.length === 0 ? 'no site yet' : v.sites.length === 1 ? v.sites[0]! : `${v.sites.length} sites`;
  const summary = `It may ${readOnly ? 'read' : 'read and act'} on ${where} for ${expiryLabel(v.expires_minutes)}.${readOnly ? ' It cannot act.' : ' Each consequential action still asks you.'}`;
  const wider: string[] = [];
  const others = v.sites.filter((s) => s !== currentSite);
  if (others.length > 0) {
    const all = allowedSites.length > 1 && allowedSites.every((s) => v.sites.includes(s));
    wider.push(
      `${all ? `All ${allowedSites.length} allowed sites` : `${others.length === 1 ? 'A site' : `${others.length} sites`}`} besides ${currentSite ? `this tab’s site (${currentSite})` : 'the current tab’s'}: ${others.join(', ')}.`,
    );
  }
  if (!readOnly && scopes.length > 0) {
    const acts = scopes.filter((s) => !isRead(s));
    wider.push(acts.includes('*:*') ? 'It may take any action (*:*), not only read.' : `It may act, not only read: ${acts.join(', ')}.`);
  }
  if (v.expires_minutes > DEFAULT_PAIRING_EXPIRY_MINUTES) wider.push(`It lasts ${expiryLabel(v.expires_minutes)}, longer than one hour.`);
  if (v.payment) wider.push('It may touch payment (each payment still needs your approval).');
  return { summary, wider };
}

export interface PairingFormValues {
  code: string;
  /** The allowed sites the person ticked. */
  sites: string[];
  scopes: string;
  expires_minutes: number;
  /** May touch payment (each payment still needs the person's approval); off unless the person ticks it. */
  payment?: boolean;
}

export type PairingField = keyof PairingFormValues;
export type PairingFormResult = { ok: true; code: string; grant: PairingGrant } | { ok: false; errors: Partial<Record<PairingField, string>> };

export function buildPairingDecision(v: PairingFormValues): PairingFormResult {
  const errors: Partial<Record<PairingField, string>> = {};
  const code = v.code.replace(/\s+/g, '');
  if (!/^\d{3}-?\d{3}$/.test(code)) errors.code = 'Type the 6-digit code the client shows, like 483-192.';

  if (v.sites.length === 0) errors.sites = 'Tick at least one site the client may use.';

  const scopes = splitList(v.scopes);
  const scopeError = listErrors(scopes, ScopeEntry, 'scope (for example orders:read, *:read to read anything, or *:* for any action)');
  if (scopeError) errors.scopes = scopeError;

  if (!PAIRING_EXPIRIES.some(([, m]) => m === v.expires_minutes)) errors.expires_minutes = 'Pick one of the offered lifetimes.';

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const grant = PairingGrant.safeParse({ scope: scopes, origins: v.sites, resource_scope: '*', payment: v.payment === true, ttl_ms: v.expires_minutes * 60_000 });
  // The checks above mirror this schema; a mismatch is reported, not swallowed.
  if (!grant.success) return { ok: false, errors: { sites: grant.error.issues[0]?.message ?? 'Invalid grant.' } };
  return { ok: true, code: code.includes('-') ? code : `${code.slice(0, 3)}-${code.slice(3)}`, grant: grant.data };
}
