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
export const DEFAULT_PAIRING_EXPIRY_MINUTES = 24 * 60;
/** Everything the client may ask for; the gateway still asks the person for every consequential action. */
export const DEFAULT_PAIRING_SCOPES = '*:*';

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
  const scopeError = listErrors(scopes, ScopeEntry, 'scope (for example orders:read, or *:* for any)');
  if (scopeError) errors.scopes = scopeError;

  if (!PAIRING_EXPIRIES.some(([, m]) => m === v.expires_minutes)) errors.expires_minutes = 'Pick one of the offered lifetimes.';

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const grant = PairingGrant.safeParse({ scope: scopes, origins: v.sites, resource_scope: '*', payment: v.payment === true, ttl_ms: v.expires_minutes * 60_000 });
  // The checks above mirror this schema; a mismatch is reported, not swallowed.
  if (!grant.success) return { ok: false, errors: { sites: grant.error.issues[0]?.message ?? 'Invalid grant.' } };
  return { ok: true, code: code.includes('-') ? code : `${code.slice(0, 3)}-${code.slice(3)}`, grant: grant.data };
}
