import { useEffect } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ContractConnectRequest } from '../../protocol/agent-contract.ts';
import { contracts, ensureContractsTracked } from '../contracts-store.ts';
import { said } from '../lib/phrases.ts';
import { clockTime } from '../lib/time.ts';
import { now } from '../now.ts';
import { ContractConnection } from './ContractConnection.tsx';
import { ContractConsentForm } from './ContractConsentForm.tsx';
import { ContractError } from './ContractError.tsx';
import { Words } from './Words.tsx';

/**
 * The current tab's site, when it offers an agent contract: connected (what Steward holds, and
 * Disconnect), ended (the site refused the token: why, and the form to connect again), or not
 * connected (the consent form). Nothing at all on a site that offers none. `onChanged` runs after
 * a connect or disconnect worked, so the view re-observes (the path changes with it).
 */
export function ContractSiteBlock({ onChanged }: { onChanged: () => void }) {
  useEffect(ensureContractsTracked, []);
  const shown = contracts.tab.value;
  if (shown.kind === 'loading' || shown.kind === 'none') return null;
  if (shown.kind === 'error')
    return (
      <p class="error-text" role="alert">
        {shown.message}
      </p>
    );
  const site = shown.site;
  const name = site.site_name || site.origin;
  const c = site.connection;
  const busy = contracts.busy.value.has(site.origin);
  const connect = async (request: ContractConnectRequest) => (await contracts.connect(request)) && onChanged();
  const disconnect = async () => (await contracts.disconnect(site.origin)) && onChanged();
  return (
    <section class="card contract" data-testid="contract-site" aria-labelledby="contract-heading">
      <h3 id="contract-heading">{name}</h3>
      <p class="note">
        <Words id="contract_offers" parts={[<span class="muted">({site.origin})</span>]} />
      </p>
      {c.status === 'connected' && <ContractConnection siteName={name} grant={c} busy={busy} onDisconnect={() => void disconnect()} />}
      {c.status === 'ended' && (
        <div class="warn-box" data-testid="contract-ended" role="status">
          <p>
            <strong>{t('contract_ended_title')}</strong> <span class="muted">({clockTime(c.at, now.value)})</span>: {said(c.message_said, c.message)}
          </p>
          <p class="note">{t('contract_pages_again', name)}</p>
        </div>
      )}
      {/* A fresh form per status: after an ending it starts again from the defaults. */}
      {c.status !== 'connected' && <ContractConsentForm key={`${site.origin} ${c.status}`} site={site} busy={busy} onConnect={(r) => void connect(r)} />}
      <ContractError origin={site.origin} />
    </section>
  );
}
