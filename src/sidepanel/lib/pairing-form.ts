import { pluralOf, t } from '../../base/i18n.ts';
import { PairingGrant } from '../../protocol/bridge.ts';
import { ScopeEntry } from '../../protocol/token.ts';
import { listErrors, splitList } from './mint-form.ts';

/**
 * A pairing card's fields → the code and the grant for `panel/pairing-decide`, or one message per
 * field saying what is wrong. Checked with the protocol's own schemas, so the card never sends
 * what the service worker would refuse (the code itself is checked there, in constant time). Pure.
 */

/** What an MCP client's token may last, in minutes. */
const PAIRING_EXPIRY_MINUTES = [60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60] as const;

/** The lifetimes offered, in the UI language (label, minutes). */
export const pairingExpiries = (): ReadonlyArray<readonly [string, number]> => PAIRING_EXPIRY_MINUTES.map((m) => [expiryLabel(m), m] as const);
/** An hour, unless the person deliberately chooses longer. */
export const DEFAULT_PAIRING_EXPIRY_MINUTES = 60;
/** Reading only, unless the person deliberately lets the client act. */
export const DEFAULT_PAIRING_SCOPES = '*:read';

/** The sites ticked at first: the current tab's site when it is an allowed one, else none (the person ticks). */
export function defaultPairingSites(currentSite: string | undefined, allowedSites: readonly string[]): string[] {
  return currentSite !== undefined && allowedSites.includes(currentSite) ? [currentSite] : [];
}

const isRead = (scope: string) => scope.endsWith(':read');
/** `1 hour`, `7 days`: the largest whole unit. */
function expiryLabel(minutes: number): string {
  const [unit, n] = minutes % (24 * 60) === 0 ? (['days', minutes / (24 * 60)] as const) : minutes % 60 === 0 ? (['hours', minutes / 60] as const) : (['minutes', minutes] as const);
  return pluralOf(n) === 'one' ? t(`time_${unit}_one`, n) : t(`time_${unit}_other`, n);
}

/**
 * What the card grants, in words: one sentence, and each way it is wider than the narrow default
 * (this tab's site, reading, one hour, no payment), so widening is a choice the person reads. Pure.
 */
export function describePairingGrant(v: Omit<PairingFormValues, 'code'>, currentSite: string | undefined, allowedSites: readonly string[]): { summary: string; wider: string[] } {
  const scopes = splitList(v.scopes);
  const readOnly = scopes.length > 0 && scopes.every(isRead);
  const where = v.sites.length === 0 ? t('pairing_where_none') : v.sites.length === 1 ? v.sites[0]! : t('pairing_where_count', v.sites.length);
  const summary = readOnly ? t('pairing_grant_read', where, expiryLabel(v.expires_minutes)) : t('pairing_grant_act', where, expiryLabel(v.expires_minutes));
  const wider: string[] = [];
  const others = v.sites.filter((s) => s !== currentSite);
  if (others.length > 0) {
    const all = allowedSites.length > 1 && allowedSites.every((s) => v.sites.includes(s));
    const which = all ? t('pairing_wider_all', allowedSites.length) : others.length === 1 ? t('pairing_wider_one') : t('pairing_wider_some', others.length);
    wider.push(currentSite ? t('pairing_wider_besides_this', which, currentSite, others.join(', ')) : t('pairing_wider_besides_current', which, others.join(', ')));
  }
  if (!readOnly && scopes.length > 0) {
    const acts = scopes.filter((s) => !isRead(s));
    wider.push(acts.includes('*:*') ? t('pairing_wider_any_action') : t('pairing_wider_acts', acts.join(', ')));
  }
  if (v.expires_minutes > DEFAULT_PAIRING_EXPIRY_MINUTES) wider.push(t('pairing_wider_longer', expiryLabel(v.expires_minutes)));
  if (v.payment) wider.push(t('pairing_wider_payment'));
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
  if (!/^\d{3}-?\d{3}$/.test(code)) errors.code = t('pairing_bad_code');

  if (v.sites.length === 0) errors.sites = t('pairing_no_site_ticked');

  const scopes = splitList(v.scopes);
  const scopeError = listErrors(scopes, ScopeEntry, t('pairing_what_scope'));
  if (scopeError) errors.scopes = scopeError;

  if (!PAIRING_EXPIRY_MINUTES.some((m) => m === v.expires_minutes)) errors.expires_minutes = t('pairing_bad_expiry');

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const grant = PairingGrant.safeParse({ scope: scopes, origins: v.sites, resource_scope: '*', payment: v.payment === true, ttl_ms: v.expires_minutes * 60_000 });
  // The checks above mirror this schema; a mismatch is reported, not swallowed.
  if (!grant.success) return { ok: false, errors: { sites: grant.error.issues[0]?.message ?? t('pairing_invalid_grant') } };
  return { ok: true, code: code.includes('-') ? code : `${code.slice(0, 3)}-${code.slice(3)}`, grant: grant.data };
}
