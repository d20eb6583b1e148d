import { useState } from 'preact/hooks';
import { allowSite, removeSite } from '../background-client.ts';
import { useSiteStatus } from '../use-site-status.ts';

/**
 * Sites Steward may observe. Steward's page scripts are registered only for these origins; on
 * every other site it reads nothing and agents can do nothing. Chrome's own site access
 * (chrome://extensions → Steward) can narrow this further, never widen it.
 */
export function SitePermissions() {
  const { sites, error } = useSiteStatus();
  const [status, setStatus] = useState('');
  const origin = sites?.tab?.origin;
  const allowed = sites?.allowed;

  const allow = async (o: string) => {
    try {
      await allowSite(o);
      setStatus(`Steward may now observe ${o}.`);
    } catch (e) {
      setStatus(`Could not allow ${o}: ${(e as Error).message}`);
    }
  };
  const remove = async (o: string) => {
    try {
      const r = await removeSite(o);
      setStatus(`Removed ${o}.${r.tabs > 0 ? ` Steward no longer answers its ${r.tabs} open tab${r.tabs === 1 ? '' : 's'}.` : ''}`);
    } catch (e) {
      setStatus(`Could not remove ${o}: ${(e as Error).message}`);
    }
  };

  return (
    <fieldset>
      <legend>Sites Steward may observe</legend>
      <p class="note">Steward reads only these sites. Everywhere else it injects nothing, and agents can neither see nor act.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <ul class="plain" aria-label="Allowed sites">
        {allowed === undefined && !error && <li class="muted">Loading…</li>}
        {allowed?.length === 0 && <li class="muted">No site allowed yet.</li>}
        {allowed?.map((o) => (
          <li key={o}>
            <code>{o}</code>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={`Remove ${o}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {origin && allowed && !allowed.includes(origin) && (
        <button type="button" class="secondary" onClick={() => void allow(origin)}>
          Allow {origin}
        </button>
      )}
      {!origin && <p class="note">Open a web page in this window to allow its site.</p>}
      <p role="status" class="note">
        {status}
      </p>
    </fieldset>
  );
}
