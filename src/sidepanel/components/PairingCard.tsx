import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { PairingView } from '../../protocol/bridge.ts';
import { decidePairing } from '../background-client.ts';
import {
  buildPairingDecision,
  defaultPairingSites,
  DEFAULT_PAIRING_EXPIRY_MINUTES,
  DEFAULT_PAIRING_SCOPES,
  describePairingGrant,
  pairingExpiries,
  type PairingField,
  type PairingFormValues,
} from '../lib/pairing-form.ts';
import { sourceWords } from '../lib/pairing-sources.ts';
import { pairingRefusalText } from '../lib/pairing-refusals.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';
import { Words } from './Words.tsx';

export type PairingDecided = { pairing_id: string; client: string; outcome: 'paired' | 'refused'; agent_id?: string; why?: string };

const TRANSPORT = { stdio: 'pairing_transport_stdio', http: 'pairing_transport_http' } as const;

/**
 * One MCP client asking to pair. The person types the code their client shows (Steward never
 * shows it here: matching it is what proves the request is that client's) and chooses the token
 * it gets. Everything the client said about itself is shown as text.
 */
export function PairingCard({
  pairing: p,
  allowedSites,
  currentSite,
  onDecided,
}: {
  pairing: PairingView;
  allowedSites: string[] | undefined;
  /** The current tab's site: the only one ticked at first. */
  currentSite: string | undefined;
  onDecided: (d: PairingDecided) => void;
}) {
  // Narrow unless the person widens it: reading, for an hour, on the current tab's site only.
  const [values, setValues] = useState<Omit<PairingFormValues, 'sites'>>({ code: '', scopes: DEFAULT_PAIRING_SCOPES, expires_minutes: DEFAULT_PAIRING_EXPIRY_MINUTES, payment: false });
  const [chosenSites, setChosenSites] = useState<string[] | undefined>(undefined);
  const sites = chosenSites ?? defaultPairingSites(currentSite, allowedSites ?? []);
  const words = describePairingGrant({ ...values, sites }, currentSite, allowedSites ?? []);
  const [errors, setErrors] = useState<Partial<Record<PairingField, string>>>({});
  const [refusal, setRefusal] = useState('');
  const [busy, setBusy] = useState(false);
  const id = p.pairing_id;
  const name = p.client.name;
  const left = msLeft(p.expires_at, now.value);
  const fid = (f: PairingField) => `${id}-${f}`;
  const a11y = (f: PairingField, hint = false) => ({
    id: fid(f),
    'aria-invalid': errors[f] ? true : undefined,
    'aria-describedby': [hint ? `${fid(f)}-hint` : '', errors[f] ? `${fid(f)}-error` : ''].filter(Boolean).join(' ') || undefined,
  });
  const set = <K extends Exclude<PairingField, 'sites'>>(k: K, v: Required<PairingFormValues>[K]) => setValues({ ...values, [k]: v });
  const toggleSite = (origin: string, on: boolean) => setChosenSites(on ? [...sites, origin] : sites.filter((s) => s !== origin));

  const pair = async (event: Event) => {
    event.preventDefault();
    setRefusal('');
    const built = buildPairingDecision({ ...values, sites });
    if (!built.ok) {
      setErrors(built.errors);
      document.getElementById(fid(Object.keys(built.errors)[0] as PairingField))?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const r = await decidePairing(id, { accept: true, code: built.code, grant: built.grant });
      onDecided({ pairing_id: id, client: name, outcome: r.status === 'paired' ? 'paired' : 'refused', ...(r.status === 'paired' ? { agent_id: r.token.token.agent_id } : {}) });
    } catch (e) {
      const error = e as Error & { code?: string };
      // The third wrong code ended the request: the card goes, the reason stays in the view.
      const why = pairingRefusalText(error, name, p.wrong_codes);
      if (error.code === 'PAIRING_REFUSED' || error.code === 'PAIRING_EXPIRED') return onDecided({ pairing_id: id, client: name, outcome: 'refused', why });
      setRefusal(why);
      setBusy(false);
    }
  };
  const refuse = async () => {
    setBusy(true);
    setRefusal('');
    try {
      await decidePairing(id, { accept: false });
      onDecided({ pairing_id: id, client: name, outcome: 'refused' });
    } catch (e) {
      setRefusal((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <section class="card pairing" aria-labelledby={`h-${id}`} data-pairing-id={id} tabIndex={-1}>
      <h3 id={`h-${id}`}>{t('pairing_heading', name)}</h3>
      <p class="note">{t('pairing_intro')}</p>
      <dl class="kv">
        <dt>{t('pairing_client')}</dt>
        <dd>
          {name}
          {p.client.title && p.client.title !== name && <span class="muted"> ({p.client.title})</span>}
        </dd>
        <dt>{t('pairing_version')}</dt>
        <dd>{p.client.version ?? <span class="muted">{t('pairing_not_given')}</span>}</dd>
        <dt>{t('pairing_connects_via')}</dt>
        <dd>{t(TRANSPORT[p.client.transport])}</dd>
        <dt>{t('pairing_source')}</dt>
        <dd>{sourceWords(p.source, p.client.transport)}</dd>
        <dt>{t('pairing_requested')}</dt>
        <dd>{clockTime(p.requested_at, now.value)}</dd>
      </dl>
      <form onSubmit={(e) => void pair(e)} noValidate aria-label={t('pairing_form_label', name)}>
        <Field id={fid('code')} label={t('pairing_code')} hint={t('pairing_code_hint', name)} error={errors.code}>
          <input
            {...a11y('code', true)}
            value={values.code}
            onInput={(e) => set('code', e.currentTarget.value)}
            inputMode="numeric"
            autocomplete="off"

            maxLength={9}
            class="code-input"
          />
        </Field>
        <fieldset aria-describedby={errors.sites ? `${fid('sites')}-error` : undefined}>
          <legend>{t('pairing_sites_legend')}</legend>
          {allowedSites === undefined && <p class="muted">{t('app_loading')}</p>}
          {allowedSites?.length === 0 && <p class="note">{t('pairing_no_site')}</p>}
          {allowedSites?.map((origin) => (
            <div class="field check" key={origin}>
              <input id={`${id}-site-${origin}`} type="checkbox" checked={sites.includes(origin)} onChange={(e) => toggleSite(origin, e.currentTarget.checked)} />
              <label for={`${id}-site-${origin}`}>{origin}</label>
            </div>
          ))}
          {errors.sites && (
            <p class="error-text" id={`${fid('sites')}-error`}>
              {errors.sites}
            </p>
          )}
        </fieldset>
        <Field id={fid('scopes')} label={t('pairing_scopes')} hint={t('pairing_scopes_hint')} error={errors.scopes}>
          <input {...a11y('scopes', true)} value={values.scopes} onInput={(e) => set('scopes', e.currentTarget.value)} autocomplete="off" />
        </Field>
        <div class="field check">
          <input {...a11y('payment')} type="checkbox" checked={values.payment === true} onChange={(e) => set('payment', e.currentTarget.checked)} />
          <label for={fid('payment')}>{t('tokens_may_touch_payment')}</label>
        </div>
        <Field id={fid('expires_minutes')} label={t('pairing_expires_after')} error={errors.expires_minutes}>
          <select {...a11y('expires_minutes')} value={String(values.expires_minutes)} onChange={(e) => set('expires_minutes', Number(e.currentTarget.value))}>
            {pairingExpiries().map(([label, m]) => (
              <option key={m} value={String(m)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <div class={words.wider.length > 0 ? 'grant-words wider' : 'grant-words'} role="note" aria-label={t('pairing_grant_label')} aria-live="polite">
          <p>{words.summary}</p>
          {words.wider.length > 0 && (
            <>
              <p>
                <Words id="pairing_wider_intro" parts={[<strong>{t('pairing_wider')}</strong>]} />
              </p>
              <ul>
                {words.wider.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </>
          )}
        </div>
        <p class={left < 60_000 ? 'expiry soon' : 'expiry'}>{left === 0 ? t('pairing_expired') : <Words id="pairing_expires_in" parts={[<span role="timer">{countdown(left)}</span>]} />}</p>
        <div class="actions" role="group" aria-label={t('pairing_decide_label', name)}>
          <button type="submit" disabled={busy || left === 0}>
            {t('pairing_pair')}
          </button>
          <button type="button" class="danger" disabled={busy || left === 0} onClick={() => void refuse()}>
            {t('pairing_refuse')}
          </button>
        </div>
      </form>
      {refusal && (
        <p class="error-text" role="alert">
          {refusal}
        </p>
      )}
    </section>
  );
}

function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && (
        <p class="note" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error-text" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
