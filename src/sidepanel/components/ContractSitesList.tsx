import { useEffect } from 'preact/hooks';
import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import { contracts, ensureContractsTracked } from '../contracts-store.ts';
import { clockTime } from '../lib/time.ts';
import { now } from '../now.ts';
import { ContractError } from './ContractError.tsx';

/** Settings: every site Steward holds (or held) a contract grant for, each with Disconnect. */
export function ContractSitesList() {
  useEffect(ensureContractsTracked, []);
  const shown = contracts.sites.value;
  return (
    <fieldset>
      <legend>Site contracts</legend>
      <p class="note">Sites that issued Steward a token for their own agent API. Disconnecting revokes the token at the site; agents then use the site’s pages again.</p>
      {shown.kind === 'error' && (
        <p class="error-text" role="alert">
          {shown.message}
        </p>
      )}
      <ul class="plain contract-sites" aria-label="Connected sites">
        {shown.kind === 'loading' && <li class="muted">Loading…</li>}
        {shown.kind === 'loaded' && shown.sites.length === 0 && <li class="muted">No site connected yet.</li>}
        {shown.kind === 'loaded' && shown.sites.map((site) => <SiteItem key={site.origin} site={site} />)}
      </ul>
    </fieldset>
  );
}

function SiteItem({ site }: { site: ContractSiteView }) {
  const name = site.site_name || site.origin;
  const c = site.connection;
  const busy = contracts.busy.value.has(site.origin);
  return (
    <li data-origin={site.origin}>
      <strong>{name}</strong> <code class="muted">{site.origin}</code>
      <div class="note">
        {c.status === 'connected' && `Connected as ${c.granted_by || 'an unnamed account'} until ${clockTime(c.expires_at, now.value)}: ${c.scopes.join(' ')}`}
        {c.status === 'ended' && `Ended: ${c.message}`}
        {c.status === 'none' && 'Not connected.'}
      </div>
      {c.status !== 'none' && (
        <button type="button" class="link" data-testid="contract-disconnect" disabled={busy} onClick={() => void contracts.disconnect(site.origin)} aria-label={`Disconnect ${name}`}>
          {c.status === 'connected' ? 'Disconnect' : 'Forget'}
        </button>
      )}
      <ContractError origin={site.origin} />
    </li>
  );
}
