import { useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import { removeSite } from '../background-client.ts';
import { allowOutcomeWords, siteFromAddress } from '../lib/site-words.ts';
import { allowSiteWithChrome, narrowToListedSites } from '../site-permission.ts';
import { useSiteStatus } from '../use-site-status.ts';

/** An example site address, the same in every language. */
const EXAMPLE_SITE = 'https://shop.example';

/**
 * Sites Steward may observe. Steward's page scripts are registered only for these origins, and
 * Chrome gives Steward access to each one alone, asked for when the person allows it; on every
 * other site Steward reads nothing and agents can do nothing. Access the person takes back in
 * Chrome's extension settings stops Steward at once; the site then waits here to be allowed again.
 */
export function SitePermissions() {
  const { sites, error } = useSiteStatus();
  const [status, setStatus] = useState('');
  const [address, setAddress] = useState('');
  const origin = sites?.tab?.origin;
  const allowed = sites?.allowed;
  const waiting = sites?.waiting ?? [];
  const refused = sites?.refused_by_policy ?? [];

  /** Chrome's prompt comes first, inside the click: the promise is made before anything is awaited. */
  const allow = async (o: string) => {
    const outcome = allowSiteWithChrome(o);
    setStatus(t('site_waiting_chrome', o));
    try {
      setStatus(allowOutcomeWords(o, await outcome));
    } catch (e) {
      setStatus(t('site_could_not_allow', o, (e as Error).message));
    }
  };
  const allowTyped = (event: Event) => {
    event.preventDefault();
    const typed = siteFromAddress(address);
    if (!typed) return setStatus(t('pairing_not_an_address', address));
    setAddress('');
    void allow(typed);
  };
  const remove = async (o: string) => {
    try {
      const r = await removeSite(o);
      setStatus(r.tabs === 0 ? t('pairing_removed', o) : pluralOf(r.tabs) === 'one' ? t('pairing_removed_tabs_one', o, r.tabs) : t('pairing_removed_tabs_other', o, r.tabs));
    } catch (e) {
      setStatus(t('pairing_could_not_remove', o, (e as Error).message));
    }
  };
  const narrow = async (listed: string[]) => {
    const asked = narrowToListedSites(listed);
    try {
      setStatus((await asked) ? t('pairing_narrowed') : t('pairing_narrow_declined'));
    } catch (e) {
      setStatus(t('pairing_could_not_narrow', (e as Error).message));
    }
  };

  return (
    <fieldset>
      <legend>{t('pairing_sites_legend_observe')}</legend>
      <p class="note">{t('pairing_sites_intro')}</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <ul class="plain" aria-label={t('pairing_allowed_sites_label')}>
        {allowed === undefined && !error && <li class="muted">{t('app_loading')}</li>}
        {allowed?.length === 0 && waiting.length === 0 && <li class="muted">{t('pairing_no_site_allowed')}</li>}
        {allowed?.map((o) => (
          <li key={o}>
            <code>{o}</code>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={t('pairing_remove_label', o)}>
              {t('pairing_remove')}
            </button>
          </li>
        ))}
        {refused.map((o) => (
          <li key={o} data-managed="true">
            <code>{o}</code> <span class="muted">{t('pairing_set_by_organisation')}</span>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={t('pairing_remove_label', o)}>
              {t('pairing_remove')}
            </button>
          </li>
        ))}
        {waiting.map((o) => (
          <li key={o}>
            <code>{o}</code> <span class="muted">{t('pairing_access_taken_back')}</span>{' '}
            <button type="button" class="link" onClick={() => void allow(o)} aria-label={t('pairing_allow_again_label', o)}>
              {t('pairing_allow_again')}
            </button>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={t('pairing_remove_label', o)}>
              {t('pairing_remove')}
            </button>
          </li>
        ))}
      </ul>
      {origin && allowed && !allowed.includes(origin) && !waiting.includes(origin) && !refused.includes(origin) && !sites?.tab?.policy && (
        <button type="button" class="secondary" onClick={() => void allow(origin)}>
          {t('site_allow', origin)}
        </button>
      )}
      <form class="inline-form" onSubmit={allowTyped}>
        <label>
          {t('pairing_allow_by_address')} <input type="text" inputMode="url" value={address} placeholder={EXAMPLE_SITE} onInput={(e) => setAddress((e.target as HTMLInputElement).value)} />
        </label>{' '}
        <button type="submit" class="secondary" disabled={address.trim() === ''}>
          {t('pairing_allow')}
        </button>
      </form>
      {sites?.broad && allowed && (
        <div class="warn-box">
          <p>{t('pairing_broad')}</p>
          <button type="button" class="secondary" onClick={() => void narrow(allowed)}>
            {t('pairing_narrow')}
          </button>
        </div>
      )}
      <p role="status" class="note">
        {status}
      </p>
    </fieldset>
  );
}
