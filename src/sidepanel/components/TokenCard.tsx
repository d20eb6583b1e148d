import { useRef, useState } from 'preact/hooks';
import type { z } from 'zod';
import type { TokenWithUsage } from '../../protocol/panel-channel.ts';
import { revokeToken } from '../background-client.ts';
import { TaintNotice } from './TaintNotice.tsx';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { tokenOwner } from '../lib/token-owner.ts';
import { now } from '../now.ts';

type Item = z.infer<typeof TokenWithUsage>;

/** One delegated token: what it allows, until when, how often it was used; revoke with a confirm step. */
export function TokenCard({ item, onRevoked }: { item: Item; onRevoked: () => void }) {
  const t = item.token;
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const revokeButton = useRef<HTMLButtonElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const left = msLeft(t.expires_at, now.value);
  const owner = tokenOwner(t);
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
      await revokeToken(t.token_id);
      setConfirming(false);
      onRevoked();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class={`card token status-${status}`} aria-labelledby={`tok-${t.token_id}`}>
      <h4 id={`tok-${t.token_id}`}>
        <code>{t.token_id}</code> <span class={`badge status-${status}`}>{status}</span>
      </h4>
      <dl class="kv">
        {(owner.label || owner.kind) && (
          <>
            <dt>For</dt>
            <dd>
              {owner.label}
              {owner.kind && <span class="badge tone-neutral">{owner.kind}</span>}
            </dd>
          </>
        )}
        <dt>Scope</dt>
        <dd>
          {t.scope.map((s) => (
            <code key={s} class="chip">
              {s}
            </code>
          ))}
        </dd>
        <dt>Resources</dt>
        <dd>
          <code>{t.resource_scope}</code>
          {t.resource_scope === '*' && <span class="muted"> (any resource)</span>}
        </dd>
        <dt>Sites</dt>
        <dd>{t.origins.join(', ')}</dd>
        <dt>Payment</dt>
        <dd>{t.payment ? 'allowed (each payment still needs your approval)' : 'not allowed'}</dd>
        <dt>{status === 'revoked' ? 'Revoked' : status === 'expired' ? 'Expired' : 'Expires'}</dt>
        <dd>
          {status === 'revoked' && t.revoked_at
            ? clockTime(t.revoked_at, now.value)
            : status === 'active'
              ? `in ${countdown(left)} (${clockTime(t.expires_at, now.value)})`
              : clockTime(t.expires_at, now.value)}
        </dd>
        <dt>Used</dt>
        <dd>
          {item.uses} time{item.uses === 1 ? '' : 's'}
        </dd>
      </dl>
      {item.taint && status === 'active' && <TaintNotice agentId={t.agent_id} taint={item.taint} onCleared={onRevoked} />}
      {status === 'active' &&
        (confirming ? (
          <div class="confirm" role="group" aria-label={`Confirm revoking ${t.token_id}`}>
            <p>
              Revoke this token? <code>{t.agent_id}</code> loses these permissions at once; this cannot be undone.
            </p>
            <button type="button" class="danger" ref={confirmButton} disabled={busy} onClick={() => void revoke()}>
              Yes, revoke
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={cancel}>
              Keep it
            </button>
          </div>
        ) : (
          <button type="button" class="danger" ref={revokeButton} onClick={ask}>
            Revoke
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
