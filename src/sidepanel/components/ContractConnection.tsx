import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import { shortThumbprint } from '../lib/contract-form.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';

type Connected = Extract<ContractSiteView['connection'], { status: 'connected' }>;

/** The grant Steward holds for a site: who granted it, what it covers, until when, and the key it is bound to; with Disconnect. */
export function ContractConnection({ siteName, grant: g, busy, onDisconnect }: { siteName: string; grant: Connected; busy: boolean; onDisconnect: () => void }) {
  const left = msLeft(g.expires_at, now.value);
  return (
    <div class="contract-connected" data-testid="contract-connected">
      <p>
        <span class="badge ok">connected</span> Connected as <strong>{g.granted_by || 'an unnamed account'}</strong>
      </p>
      <dl class="kv">
        <dt>May do</dt>
        <dd>
          {g.scopes.map((s) => (
            <code key={s} class="chip">
              {s}
            </code>
          ))}
        </dd>
        <dt>Resources</dt>
        <dd>{g.resource_scope.join(', ')}</dd>
        <dt>Payment</dt>
        <dd>{g.payment ? 'yes (each payment still needs your approval)' : 'no'}</dd>
        <dt>Expires</dt>
        <dd>{left === 0 ? 'expired' : `${clockTime(g.expires_at, now.value)} (in ${countdown(left)})`}</dd>
        <dt>Steward’s key</dt>
        <dd>
          <code title={g.key_thumbprint}>{shortThumbprint(g.key_thumbprint)}</code>
        </dd>
      </dl>
      <button type="button" class="danger" data-testid="contract-disconnect" disabled={busy} onClick={onDisconnect}>
        Disconnect Steward from {siteName}
      </button>
    </div>
  );
}
