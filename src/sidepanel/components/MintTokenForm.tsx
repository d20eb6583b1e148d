import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { mintToken } from '../background-client.ts';
import { buildMint, type MintField, type MintFormValues } from '../lib/mint-form.ts';
import { settings } from '../settings.ts';
import { useCurrentOrigin } from '../use-current-origin.ts';
import { LifetimeOptions } from './LifetimeOptions.tsx';
import { NewTokenSecret } from './NewTokenSecret.tsx';

const KNOWN_AGENTS = ['agent:copilot'];

/** Example values in the fields: codes and addresses, the same in every language. */
const EXAMPLES = { scopes: 'orders:read orders:cancel', resource_scope: 'order:ORD-1024', origins: 'https://shop.example' };

function Field({ id, label, hint, error, children }: { id: MintField; label: string; hint?: string; error?: string; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={`mint-${id}`}>{label}</label>
      {children}
      {hint && (
        <p class="note" id={`mint-${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error-text" id={`mint-${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** Grants an agent a delegated token. Validation uses the protocol's own schemas, field by field. */
export function MintTokenForm({ onMinted }: { onMinted: () => void }) {
  const origin = useCurrentOrigin();
  const [values, setValues] = useState<MintFormValues>({
    agent_id: 'agent:copilot',
    scopes: '',
    resource_scope: '',
    origins: '',
    payment: false,
    lifetime_minutes: settings.value.token_lifetime_minutes,
  });
  const [errors, setErrors] = useState<Partial<Record<MintField, string>>>({});
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  // The new token's secret, in this component's memory only until the person is done with it.
  const [minted, setMinted] = useState<{ tokenId: string; agentId: string; secret: string } | undefined>(undefined);

  // Propose the current site once it is known, without overwriting what the person typed.
  useEffect(() => {
    if (origin) setValues((v) => (v.origins === '' ? { ...v, origins: origin } : v));
  }, [origin]);

  const set = <K extends MintField>(k: K, v: MintFormValues[K]) => setValues({ ...values, [k]: v });
  const a11y = (k: MintField, hint = false) => ({
    id: `mint-${k}`,
    'aria-invalid': errors[k] ? true : undefined,
    'aria-describedby': [hint ? `mint-${k}-hint` : '', errors[k] ? `mint-${k}-error` : ''].filter(Boolean).join(' ') || undefined,
  });

  /** Shows its own failure in the form's status: the submit handler need not wait for it. */
  const submit = async (event: Event) => {
    event.preventDefault();
    setStatus('');
    setMinted(undefined);
    const built = buildMint(values);
    if (!built.ok) {
      setErrors(built.errors);
      const first = Object.keys(built.errors)[0];
      document.getElementById(`mint-${first}`)?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { token, secret } = await mintToken(built.message);
      setStatus(t('tokens_minted', token.token_id, token.agent_id));
      setMinted({ tokenId: token.token_id, agentId: token.agent_id, secret });
      setValues({ ...values, scopes: '', resource_scope: '' });
      onMinted();
    } catch (e) {
      setStatus(t('tokens_mint_failed', (e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form class="mint card" onSubmit={(e) => void submit(e)} aria-labelledby="mint-heading" noValidate>
        <h3 id="mint-heading">{t('tokens_mint_heading')}</h3>
        <Field id="agent_id" label={t('tokens_mint_agent')} error={errors.agent_id}>
          <input {...a11y('agent_id')} list="known-agents" value={values.agent_id} onInput={(e) => set('agent_id', e.currentTarget.value)} autocomplete="off" />
          <datalist id="known-agents">
            {KNOWN_AGENTS.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </Field>
        <Field id="scopes" label={t('tokens_mint_scopes')} hint={t('tokens_mint_scopes_hint')} error={errors.scopes}>
          <input {...a11y('scopes', true)} value={values.scopes} placeholder={EXAMPLES.scopes} onInput={(e) => set('scopes', e.currentTarget.value)} autocomplete="off" />
        </Field>
        <Field id="resource_scope" label={t('tokens_mint_resources')} hint={t('tokens_mint_resources_hint')} error={errors.resource_scope}>
          <input
            {...a11y('resource_scope', true)}
            value={values.resource_scope}
            placeholder={EXAMPLES.resource_scope}
            onInput={(e) => set('resource_scope', e.currentTarget.value)}
            autocomplete="off"
          />
        </Field>
        <Field id="origins" label={t('tokens_mint_sites')} hint={t('tokens_mint_sites_hint')} error={errors.origins}>
          <input {...a11y('origins', true)} value={values.origins} placeholder={EXAMPLES.origins} onInput={(e) => set('origins', e.currentTarget.value)} autocomplete="off" />
        </Field>
        <div class="field check">
          <input {...a11y('payment')} type="checkbox" checked={values.payment} onChange={(e) => set('payment', e.currentTarget.checked)} />
          <label for="mint-payment">{t('tokens_may_touch_payment')}</label>
        </div>
        <Field id="lifetime_minutes" label={t('tokens_mint_lifetime')} error={errors.lifetime_minutes}>
          <select {...a11y('lifetime_minutes')} value={String(values.lifetime_minutes)} onChange={(e) => set('lifetime_minutes', Number(e.currentTarget.value))}>
            <LifetimeOptions minutes={values.lifetime_minutes} />
          </select>
        </Field>
        <button type="submit" disabled={busy}>
          {t('tokens_mint_submit')}
        </button>
        <p role="status" class="note">
          {status}
        </p>
      </form>
      {minted && <NewTokenSecret {...minted} onDone={() => setMinted(undefined)} />}
    </>
  );
}
