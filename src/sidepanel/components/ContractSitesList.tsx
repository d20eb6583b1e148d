import { useEffect } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ContractSiteView } from '../../protocol/agent-contract.ts';
import { contracts, ensureContractsTracked } from '../contracts-store.ts';
import { said } from '../lib/phrases.ts';
import { clockTime } from '../lib/time.ts';
import { now } from '../now.ts';
import { ContractError } from './ContractError.tsx';
import { Words } from './Words.tsx';

/** Settings: every site Steward holds (or held) a contract grant for, each with Disconnect. */
export function ContractSitesList() {
  useEffect(ensureContractsTracked, []);
  const shown = contracts.sites.value;
  return (
    <fieldset>
      <legend>{t('contract_sites_legend')}</legend>
      <p class="note">{t('contract_sites_note')}</p>
      {shown.kind === 'error' && (
        <p class="error-text" role="alert">
          {shown.message}
        </p>
      )}
      <ul class="plain contract-sites" aria-label={t('contract_sites_label')}>
        {shown.kind === 'loading' && <li class="muted">{t('app_loading')}</li>}
        {shown.kind === 'loaded' && shown.sites.length === 0 && <li class="muted">{t('contract_sites_none')}</li>}
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
        {c.status === 'connected' && t('contract_site_connected', c.granted_by || t('contract_unnamed_account'), clockTime(c.expires_at, now.value), c.scopes.join(' '))}
        {c.status === 'ended' && <Words id="contract_site_ended" parts={[said(c.message_said, c.message)]} />}
        {c.status === 'none' && t('contract_site_not_connected')}
      </div>
      {c.status !== 'none' && (
        <button type="button" class="link" data-testid="contract-disconnect" disabled={busy} onClick={() => void contracts.disconnect(site.origin)} aria-label={t('contract_disconnect_site', name)}>
          {c.status === 'connected' ? t('contract_disconnect') : t('contract_forget')}
        </button>
      )}
      <ContractError origin={site.origin} />
    </li>
  );
}
