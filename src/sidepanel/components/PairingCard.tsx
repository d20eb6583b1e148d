import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { PairingView } from '../../protocol/bridge.ts';
import { decidePairing } from '../background-client.ts';
import {
  buildPairingDecision,
  defaultPairingSites,
  DEFAULT_PAIRING_EXPIRY_MINUTES,
  DEFAULT_PAIRING_SCOPES,
  describePairingGrant,
  PAIRING_EXPIRIES,
  type PairingField,
  type PairingFormValues,
} from '../lib/pairing-form.ts';
import { sourceWords } from '../lib/pairing-sources.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';

export type PairingDecided = { pairing_id: string; client: string; outcome: 'paired' | 'refused'; agent_id?: string; why?: string };

const TRANSPORT = { stdio: 'stdio (the client started the bridge)', http: 'HTTP on this computer' } as const;

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
      if (error.code === 'PAIRING_REFUSED' || error.code === 'PAIRING_EXPIRED') return onDecided({ pairing_id: id, client: name, outcome: 'refused', why: error.message });
      setRefusal(error.message);
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
      <h3 id={`h-${id}`}>Pairing request from {name}</h3>
      <p class="note">An MCP client wants to use your browser through Steward. It gets its own token; every action still goes through Steward’s approvals.</p>
      <dl class="kv">
        <dt>Client</dt>
        <dd>
          {name}
          {p.client.title && p.client.title !== name && <span class="muted"> ({p.client.title})</span>}
        </dd>
        <dt>Version</dt>
        <dd>{p.client.version ?? <span class="muted">not given</span>}</dd>
        <dt>Connects via</dt>
        <dd>{TRANSPORT[p.client.transport]}</dd>
        <dt>Source</dt>
        <dd>{sourceWords(p.source, p.client.transport)}</dd>
        <dt>Requested</dt>
        <dd>{clockTime(p.requested_at, now.value)}</dd>
      </dl>
      <form onSubmit={(e) => void pair(e)} noValidate aria-label={`Pair ${name}`}>
        <Field id={fid('code')} label="Pairing code" hint={`The 6 digits ${name} shows you. If it shows none, or another code, refuse.`} error={errors.code}>
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
          <legend>Sites it may use</legend>
          {allowedSites === undefined && <p class="muted">Loading…</p>}
          {allowedSites?.length === 0 && <p class="note">No site is allowed yet. Allow a site in Settings first; a client can use only sites Steward may observe.</p>}
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
        <Field
          id={fid('scopes')}
          label="Scopes"
          hint="What it may do, as namespace:verb separated by spaces: *:read reads only; *:* allows any action. Consequential actions still ask you."
          error={errors.scopes}
        >
          <input {...a11y('scopes', true)} value={values.scopes} onInput={(e) => set('scopes', e.currentTarget.value)} autocomplete="off" />
        </Field>
        <div class="field check">
          <input {...a11y('payment')} type="checkbox" checked={values.payment === true} onChange={(e) => set('payment', e.currentTarget.checked)} />
          <label for={fid('payment')}>May touch payment (each payment still needs your approval)</label>
        </div>
        <Field id={fid('expires_minutes')} label="Expires after" error={errors.expires_minutes}>
          <select {...a11y('expires_minutes')} value={String(values.expires_minutes)} onChange={(e) => set('expires_minutes', Number(e.currentTarget.value))}>
            {PAIRING_EXPIRIES.map(([label, m]) => (
              <option key={m} value={String(m)}>
                {label}
              </option>
            ))}
          </select>
        </Field>
        <div class={words.wider.length > 0 ? 'grant-words wider' : 'grant-words'} role="note" aria-label="What you grant" aria-live="polite">
          <p>{words.summary}</p>
          {words.wider.length > 0 && (
            <>
              <p>
                <strong>Wider than the default</strong> (this tab’s site, reading, one hour):
              </p>
              <ul>
                {words.wider.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </>
          )}
        </div>
        <p class={left < 60_000 ? 'expiry soon' : 'expiry'}>
          {left === 0 ? (
            'Expired: the client must ask again.'
          ) : (
            <>
              The request expires in <span role="timer">{countdown(left)}</span>.
            </>
          )}
        </p>
        <div class="actions" role="group" aria-label={`Decide on pairing ${name}`}>
          <button type="submit" disabled={busy || left === 0}>
            Pair
          </button>
          <button type="button" class="danger" disabled={busy || left === 0} onClick={() => void refuse()}>
            Refuse
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
