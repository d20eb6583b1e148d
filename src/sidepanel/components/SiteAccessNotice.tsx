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
    setStatus(`Waiting for Chrome: it asks you whether Steward may read ${origin}.`);
    try {
      const done = await outcome;
      setStatus(allowOutcomeWords(origin, done));
      if (done.kind === 'allowed') onAllowed();
    } catch (e) {
      setStatus(`Could not allow ${origin}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!tab.origin)
    body = (
      <p class="muted">
        Steward cannot see this tab’s address: it is a browser page, or a site Steward has no access to. To allow this site, click Steward’s toolbar button while the tab is showing (Chrome then shows
        Steward this tab), or type its address under Settings → Sites Steward may observe.
      </p>
    );
  else if (tab.policy)
    body = (
      <div class="warn-box">
        <p>
          Steward does not read <strong>{tab.origin}</strong>, whatever your own list says: agents see nothing here and can do nothing here.
        </p>
        <ManagedNote>
          {tab.policy === 'blocked' ? 'your organisation blocks Steward on this site.' : 'your organisation allows Steward only on the sites it lists, and this is not one of them.'}
        </ManagedNote>
        <button type="button" disabled>
          Allow {tab.origin}
        </button>
      </div>
    );
  else if (tab.waiting)
    body = (
      <div class="warn-box">
        <p>
          Chrome no longer gives Steward access to <strong>{tab.origin}</strong> (it was taken back in Chrome’s extension settings), so Steward does not read it. It stays on your list until you allow
          it again or remove it.
        </p>
        <button type="button" disabled={busy} onClick={() => void allow(tab.origin!)}>
          Allow {tab.origin}
        </button>
      </div>
    );
  else if (!tab.allowed)
    body = (
      <div class="warn-box">
        <p>
          Steward does not read <strong>{tab.origin}</strong>: it is not one of your allowed sites, so agents see nothing here and can do nothing here.
        </p>
        <button type="button" disabled={busy} onClick={() => void allow(tab.origin!)}>
          Allow {tab.origin}
        </button>
      </div>
    );
  else body = <p class="note">Steward observes {tab.origin} (one of your allowed sites; remove it in Settings).</p>;

  return (
    <section aria-label="Site access">
      {body}
      <p role="status" class="note">
        {status}
      </p>
    </section>
  );
}
