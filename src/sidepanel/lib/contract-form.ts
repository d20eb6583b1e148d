import { pluralOf, t } from '../../base/i18n.ts';
import { ContractConnectRequest, type ContractSiteView } from '../../protocol/agent-contract.ts';
import { ResourceScope } from '../../protocol/resource.ts';
import { listErrors, splitList } from './mint-form.ts';

/**
 * The consent form for a site's token grant: its defaults from what the site offers, and its
 * fields → the `panel/contract-connect` request, or one message per field saying what is wrong.
 * Checked with the protocol's own schema, so the panel never sends what the worker would refuse. Pure.
 */

/** What a site's token may last (label, seconds), before the site's own cap; labels in the UI language. */
const contractExpiries = (): ReadonlyArray<readonly [string, number]> => [
  [t('time_hours_one', 1), 3600],
  [t('time_days_one', 1), 24 * 3600],
  [t('time_days_other', 7), 7 * 24 * 3600],
];

export interface ContractFormValues {
  scopes: string[];
  /** As typed: `order:*`, or `order:ORD-1024, order:ORD-1025`, or `*`. */
  resource_scope: string;
  payment: boolean;
  expires_in_s: number;
}
export type ContractField = keyof ContractFormValues;
export type ContractFormResult = { ok: true; request: ContractConnectRequest } | { ok: false; errors: Partial<Record<ContractField, string>> };

/**
 * Whether a scope lets an agent touch money. The site's view names scopes only, so this goes by
 * the verb and the site's title for it; a guess here only changes what starts ticked, never what
 * is sent unseen (payment itself also needs the token's payment flag, which starts off).
 */
export function isPaymentScope(scope: { scope: string; title: string }): boolean {
  const verb = scope.scope.slice(scope.scope.indexOf(':') + 1);
  // Reading only shows: a title like "see orders and payment status" is no reason to untick it.
  if (verb === 'read') return false;
  return /^(?:pay|payment|payments|purchase|checkout|charge|refund)$/.test(verb) || /\b(?:pay|pays|payment|payments|purchase|charge)\b/i.test(scope.title);
}

/** `orders:*`: every action on that namespace, the payment ones included, and any the site adds later. */
export function isWildcardScope(scope: { scope: string }): boolean {
  return scope.scope.endsWith(':*');
}

/** The lifetimes this site allows: the usual ones up to its cap, or the cap alone when it is shorter than an hour. */
export function expiryChoices(maxTtlS: number): Array<readonly [string, number]> {
  const within = contractExpiries().filter(([, s]) => s <= maxTtlS);
  if (within.length > 0) return within;
  const minutes = Math.floor(maxTtlS / 60);
  if (minutes >= 1) return [[t(pluralOf(minutes) === 'one' ? 'time_minutes_one' : 'time_minutes_other', minutes), maxTtlS]];
  return [[t(pluralOf(maxTtlS) === 'one' ? 'contract_seconds_one' : 'contract_seconds_other', maxTtlS), maxTtlS]];
}

/**
 * What the form starts with: every offered scope but payment ones and wildcards (which include
 * payment), each resource type whole, no payment, one hour (or less if the site caps it).
 */
export function defaultContractForm(site: ContractSiteView): ContractFormValues {
  return {
    scopes: site.offered_scopes.filter((s) => !isPaymentScope(s) && !isWildcardScope(s)).map((s) => s.scope),
    resource_scope: site.resource_types.map((t) => `${t}:*`).join(', '),
    payment: false,
    expires_in_s: expiryChoices(site.max_token_ttl_s)[0]![1],
  };
}

export function buildContractConnect(site: ContractSiteView, v: ContractFormValues): ContractFormResult {
  const errors: Partial<Record<ContractField, string>> = {};
  const offered = new Set(site.offered_scopes.map((s) => s.scope));
  if (v.scopes.length === 0) errors.scopes = t('contract_error_no_scope');
  else if (v.scopes.some((s) => !offered.has(s))) errors.scopes = t('contract_error_scope_not_offered');

  const resources = splitList(v.resource_scope);
  const resourceError = listErrors(resources, ResourceScope, t('contract_what_resource'), (item) => t('contract_error_resource_invalid', item));
  if (resourceError) errors.resource_scope = resourceError;

  if (v.payment && !site.has_payment_actions) errors.payment = t('contract_error_no_payment');
  if (!expiryChoices(site.max_token_ttl_s).some(([, s]) => s === v.expires_in_s)) errors.expires_in_s = t('contract_error_lifetime');

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  // Offered order, not click order: the request reads the same however the boxes were ticked.
  const scopes = site.offered_scopes.map((s) => s.scope).filter((s) => v.scopes.includes(s));
  const request = ContractConnectRequest.safeParse({ origin: site.origin, scopes, resource_scope: resources, payment: v.payment, expires_in_s: v.expires_in_s });
  // The checks above mirror this schema; a mismatch is reported, not swallowed.
  if (!request.success) return { ok: false, errors: { scopes: request.error.issues[0]?.message ?? t('contract_error_invalid') } };
  return { ok: true, request: request.data };
}

/** A key thumbprint short enough to read and compare by eye (the full one is in the tooltip). */
export function shortThumbprint(thumbprint: string): string {
  return thumbprint.length > 12 ? `${thumbprint.slice(0, 12)}…` : thumbprint;
}
