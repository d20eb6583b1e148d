import type { ComponentChildren } from 'preact';
import { t } from '../../base/i18n.ts';
import { useState } from 'preact/hooks';
import type { ContractConnectRequest, ContractSiteView } from '../../protocol/agent-contract.ts';
import { buildContractConnect, defaultContractForm, expiryChoices, isPaymentScope, isWildcardScope, type ContractField, type ContractFormValues } from '../lib/contract-form.ts';

/**
 * The person's consent to a site's token grant: what Steward may do there, on which resources,
 * whether payment, for how long. Says plainly what connecting does. The site's names and titles
 * are shown as text only.
 */
export function ContractConsentForm({ site, busy, onConnect }: { site: ContractSiteView; busy: boolean; onConnect: (request: ContractConnectRequest) => void }) {
  const [values, setValues] = useState<ContractFormValues>(() => defaultContractForm(site));
  const [errors, setErrors] = useState<Partial<Record<ContractField, string>>>({});
  const name = site.site_name || site.origin;
  const set = <K extends ContractField>(k: K, v: ContractFormValues[K]) => setValues({ ...values, [k]: v });
  const toggleScope = (scope: string, on: boolean) => set('scopes', on ? [...values.scopes, scope] : values.scopes.filter((s) => s !== scope));
  const a11y = (f: ContractField, hint = false) => ({
    id: `contract-${f}`,
    'aria-invalid': errors[f] ? true : undefined,
    'aria-describedby': [hint ? `contract-${f}-hint` : '', errors[f] ? `contract-${f}-error` : ''].filter(Boolean).join(' ') || undefined,
  });

  const submit = (event: Event) => {
    event.preventDefault();
    const built = buildContractConnect(site, values);
    if (!built.ok) {
      setErrors(built.errors);
      const first = Object.keys(built.errors)[0] as ContractField;
      document.getElementById(first === 'scopes' ? `contract-scope-0` : `contract-${first}`)?.focus();
      return;
    }
    setErrors({});
    onConnect(built.request);
  };

  return (
    <form class="contract-consent" data-testid="contract-consent" onSubmit={submit} noValidate aria-label={t('contract_connect_to', name)}>
      <p class="note">{t('contract_explain', name)}</p>
      <fieldset aria-describedby={errors.scopes ? 'contract-scopes-error' : undefined}>
        <legend>{t('contract_scopes_legend', name)}</legend>
        {site.offered_scopes.map((s, i) => (
          <div class="field check" key={s.scope}>
            <input
              id={`contract-scope-${i}`}
              type="checkbox"
              data-testid="contract-scope"
              value={s.scope}
              checked={values.scopes.includes(s.scope)}
              onChange={(e) => toggleScope(s.scope, e.currentTarget.checked)}
            />
            <label for={`contract-scope-${i}`}>
              {s.title || s.scope} <code class="muted">{s.scope}</code>
              {isPaymentScope(s) && <span class="badge danger">{t('contract_badge_payment')}</span>}
              {isWildcardScope(s) && <span class="badge warn">{t('contract_badge_wildcard')}</span>}
            </label>
          </div>
        ))}
        {errors.scopes && (
          <p class="error-text" id="contract-scopes-error">
            {errors.scopes}
          </p>
        )}
      </fieldset>
      <Field id="resource_scope" label={t('contract_resources')} hint={t('contract_resources_hint')} error={errors.resource_scope}>
        <input {...a11y('resource_scope', true)} data-testid="contract-resource-scope" value={values.resource_scope} onInput={(e) => set('resource_scope', e.currentTarget.value)} autocomplete="off" />
      </Field>
      {site.has_payment_actions && (
        <div class="field check">
          <input {...a11y('payment')} type="checkbox" data-testid="contract-payment" checked={values.payment} onChange={(e) => set('payment', e.currentTarget.checked)} />
          <label for="contract-payment">{t('contract_may_pay', name)}</label>
          {errors.payment && (
            <p class="error-text" id="contract-payment-error">
              {errors.payment}
            </p>
          )}
        </div>
      )}
      <Field id="expires_in_s" label={t('contract_expires_after')} error={errors.expires_in_s}>
        <select {...a11y('expires_in_s')} data-testid="contract-expiry" value={String(values.expires_in_s)} onChange={(e) => set('expires_in_s', Number(e.currentTarget.value))}>
          {expiryChoices(site.max_token_ttl_s).map(([label, s]) => (
            <option key={s} value={String(s)}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      <p class="note">{t('contract_signed_in', name)}</p>
      <button type="submit" data-testid="contract-connect" disabled={busy}>
        {busy ? t('contract_connecting', name) : t('contract_connect_to', name)}
      </button>
    </form>
  );
}

function Field({ id, label, hint, error, children }: { id: ContractField; label: string; hint?: string; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={`contract-${id}`}>{label}</label>
      {children}
      {hint && (
        <p class="note" id={`contract-${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error-text" id={`contract-${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
