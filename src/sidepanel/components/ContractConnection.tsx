import { t } from '../../base/i18n.ts';
import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import { shortThumbprint } from '../lib/contract-form.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';
import { Words } from './Words.tsx';

type Connected = Extract<ContractSiteView['connection'], { status: 'connected' }>;

/** The grant Steward holds for a site: who granted it, what it covers, until when, and the key it is bound to; with Disconnect. */
export function ContractConnection({ siteName, grant: g, busy, onDisconnect }: { siteName: string; grant: Connected; busy: boolean; onDisconnect: () => void }) {
  const left = msLeft(g.expires_at, now.value);
  return (
    <div class="contract-connected" data-testid="contract-connected">
      <p>
        <span class="badge ok">{t('contract_badge_connected')}</span> <Words id="contract_connected_as" parts={[<strong>{g.granted_by || t('contract_unnamed_account')}</strong>]} />
      </p>
      <dl class="kv">
        <dt>{t('contract_may_do')}</dt>
        <dd>
          {g.scopes.map((s) => (
            <code key={s} class="chip">
              {s}
            </code>
          ))}
        </dd>
        <dt>{t('contract_resources')}</dt>
        <dd>{g.resource_scope.join(', ')}</dd>
        <dt>{t('contract_payment')}</dt>
        <dd>{g.payment ? t('contract_payment_yes') : t('contract_payment_no')}</dd>
        <dt>{t('contract_expires')}</dt>
        <dd>{left === 0 ? t('contract_expired') : t('contract_expires_at', clockTime(g.expires_at, now.value), countdown(left))}</dd>
        <dt>{t('contract_steward_key')}</dt>
        <dd>
          <code title={g.key_thumbprint}>{shortThumbprint(g.key_thumbprint)}</code>
        </dd>
      </dl>
      <button type="button" class="danger" data-testid="contract-disconnect" disabled={busy} onClick={onDisconnect}>
        {t('contract_disconnect_from', siteName)}
      </button>
    </div>
  );
}
