import { t } from '../../base/i18n.ts';
import { Words } from './Words.tsx';
import { useState } from 'preact/hooks';
import type { TabSiteStatus } from '../../protocol/site-access.ts';
import { allowOutcomeWords } from '../lib/site-words.ts';
import { allowSiteWithChrome } from '../site-permission.ts';
import { ManagedNote } from './ManagedNote.tsx';

/**
 * Whether Steward reads the current tab's site, and the one button that changes it. Steward reads
 * only the sites the person allows, and "Allow" asks Chrome for that site (Chrome's prompt).
 */
export function SiteAccessNotice({ tab, error, onAllowed }: { tab: TabSiteStatus | undefined; error: string; onAllowed: () => void }) {
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  if (error)
    return (
      <p class="error-text" role="alert">
        {error}
      </p>
    );
  if (!tab) return null;

  const allow = async (origin: string) => {
    // Chrome's prompt first, still inside the click: nothing is awaited before it.
    const outcome = allowSiteWithChrome(origin);
    setBusy(true);
    setStatus(t('site_waiting_chrome', origin));
    try {
      const done = await outcome;
      setStatus(allowOutcomeWords(origin, done));
      if (done.kind === 'allowed') onAllowed();
    } catch (e) {
      setStatus(t('site_could_not_allow', origin, (e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!tab.origin) body = <p class="muted">{t('site_no_address')}</p>;
  else if (tab.policy)
    body = (
      <div class="warn-box">
        <p>
          <Words id="site_policy_not_read" parts={[<strong>{tab.origin}</strong>]} />
        </p>
        <ManagedNote>{tab.policy === 'blocked' ? t('site_policy_blocked') : t('site_policy_not_listed')}</ManagedNote>
        <button type="button" disabled>
          {t('site_allow', tab.origin)}
        </button>
      </div>
    );
  else if (tab.waiting)
    body = (
      <div class="warn-box">
        <p>
          <Words id="site_taken_back" parts={[<strong>{tab.origin}</strong>]} />
        </p>
        <button type="button" disabled={busy} onClick={() => void allow(tab.origin!)}>
          {t('site_allow', tab.origin)}
        </button>
      </div>
    );
  else if (!tab.allowed)
    body = (
      <div class="warn-box">
        <p>
          <Words id="site_not_allowed" parts={[<strong>{tab.origin}</strong>]} />
        </p>
        <button type="button" disabled={busy} onClick={() => void allow(tab.origin!)}>
          {t('site_allow', tab.origin)}
        </button>
      </div>
    );
  else body = <p class="note">{t('site_observes', tab.origin)}</p>;

  return (
    <section aria-label={t('site_access_label')}>
      {body}
      <p role="status" class="note">
        {status}
      </p>
    </section>
  );
}
