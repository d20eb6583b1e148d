import { useRef, useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import type { z } from 'zod';
import type { TokenWithUsage } from '../../protocol/panel-channel.ts';
import { revokeToken } from '../background-client.ts';
import { TaintNotice } from './TaintNotice.tsx';
import { Words } from './Words.tsx';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { tokenOwner } from '../lib/token-owner.ts';
import { now } from '../now.ts';

type Item = z.infer<typeof TokenWithUsage>;

/** One delegated token: what it allows, until when, how often it was used; revoke with a confirm step. */
export function TokenCard({ item, onRevoked }: { item: Item; onRevoked: () => void }) {
  const token = item.token;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const left = msLeft(token.expires_at, now.value);
  const owner = tokenOwner(token);
  // The service worker's status is authoritative; the clock only catches expiry between reloads.
  const status = item.status === 'active' && left === 0 ? 'expired' : item.status;

  const ask = () => {
    setConfirming(true);
    setTimeout(() => confirmButton.current?.focus(), 0);
  };
  const cancel = () => {
    setConfirming(false);
    setTimeout(() => revokeButton.current?.focus(), 0);
  };
  const revoke = async () => {
    setBusy(true);
    setError('');
    try {
      await revokeToken(token.token_id);
      setConfirming(false);
      onRevoked();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class={`card token status-${status}`} aria-labelledby={`tok-${token.token_id}`}>
      <h4 id={`tok-${token.token_id}`}>
        <code>{token.token_id}</code> <span class={`badge status-${status}`}>{t(`tokens_status_${status}`)}</span>
      </h4>
      <dl class="kv">
        {(owner.label || owner.kind) && (
          <>
            <dt>{t('tokens_for')}</dt>
            <dd>
              {owner.label}
              {owner.kind && <span class="badge tone-neutral">{owner.kind}</span>}
            </dd>
          </>
        )}
        <dt>{t('tokens_scope')}</dt>
        <dd>
          {token.scope.map((s) => (
            <code key={s} class="chip">
              {s}
            </code>
          ))}
        </dd>
        <dt>{t('tokens_resources')}</dt>
        <dd>
          <code>{token.resource_scope}</code>
          {token.resource_scope === '*' && <span class="muted"> {t('tokens_any_resource')}</span>}
        </dd>
        <dt>{t('tokens_sites')}</dt>
        <dd>{token.origins.join(', ')}</dd>
        <dt>{t('tokens_payment')}</dt>
        <dd>{token.payment ? t('tokens_payment_allowed') : t('tokens_payment_not_allowed')}</dd>
        <dt>{status === 'revoked' ? t('tokens_revoked_at') : status === 'expired' ? t('tokens_expired_at') : t('tokens_expires_at')}</dt>
        <dd>
          {status === 'revoked' && token.revoked_at
            ? clockTime(token.revoked_at, now.value)
            : status === 'active'
              ? t('tokens_expires_in', countdown(left), clockTime(token.expires_at, now.value))
              : clockTime(token.expires_at, now.value)}
        </dd>
        <dt>{t('tokens_used')}</dt>
        <dd>{pluralOf(item.uses) === 'one' ? t('tokens_uses_one', item.uses) : t('tokens_uses_other', item.uses)}</dd>
      </dl>
      {item.taint && status === 'active' && <TaintNotice agentId={token.agent_id} taint={item.taint} onCleared={onRevoked} />}
      {status === 'active' &&
        (confirming ? (
          <div class="confirm" role="group" aria-label={t('tokens_confirm_revoke_label', token.token_id)}>
            <p>
              <Words id="tokens_confirm_revoke" parts={[<code>{token.agent_id}</code>]} />
            </p>
            <button type="button" class="danger" ref={confirmButton} disabled={busy} onClick={() => void revoke()}>
              {t('tokens_yes_revoke')}
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={cancel}>
              {t('tokens_keep')}
            </button>
          </div>
        ) : (
          <button type="button" class="danger" ref={revokeButton} onClick={ask}>
            {t('tokens_revoke')}
          </button>
        ))}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}
