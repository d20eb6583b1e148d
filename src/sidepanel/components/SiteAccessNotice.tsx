import { useState } from 'preact/hooks';
import { allowSite } from '../background-client.ts';
import type { TabSiteStatus } from '../../protocol/site-access.ts';

/**
 * Whether Steward reads the current tab's site, and the one button that changes it. Steward reads
 * only the sites the person allows; Chrome's own site access for extensions applies on top.
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
    setBusy(true);
    try {
      const r = await allowSite(origin);
      setStatus(
        r.tabs > 0
          ? `Steward now observes ${origin}. Network evidence and the WebMCP polyfill start when the page next loads.`
          : `Steward now observes ${origin}; its pages are read from their next load.`,
      );
      onAllowed();
    } catch (e) {
      setStatus(`Could not allow ${origin}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  let body;
  if (!tab.origin) body = <p class="muted">Steward cannot read this page: it is a browser page, or Chrome’s site access keeps Steward out of it (chrome://extensions → Steward → Site access).</p>;
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
  // (Where Chrome's own site access keeps Steward out, Chrome hides the tab's address too: the first case.)
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
