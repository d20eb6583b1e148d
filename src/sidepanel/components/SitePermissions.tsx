import { useState } from 'preact/hooks';
import { removeSite } from '../background-client.ts';
import { allowOutcomeWords, siteFromAddress } from '../lib/site-words.ts';
import { allowSiteWithChrome, narrowToListedSites } from '../site-permission.ts';
import { useSiteStatus } from '../use-site-status.ts';

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
    setStatus(`Waiting for Chrome: it asks you whether Steward may read ${o}.`);
    try {
      setStatus(allowOutcomeWords(o, await outcome));
    } catch (e) {
      setStatus(`Could not allow ${o}: ${(e as Error).message}`);
    }
  };
  const allowTyped = (event: Event) => {
    event.preventDefault();
    const typed = siteFromAddress(address);
    if (!typed) return setStatus(`“${address}” is not a web site’s address (for example https://shop.example or http://localhost:4100).`);
    setAddress('');
    void allow(typed);
  };
  const remove = async (o: string) => {
    try {
      const r = await removeSite(o);
      setStatus(`Removed ${o}.${r.tabs > 0 ? ` Steward no longer answers its ${r.tabs} open tab${r.tabs === 1 ? '' : 's'}.` : ''}`);
    } catch (e) {
      setStatus(`Could not remove ${o}: ${(e as Error).message}`);
    }
  };
  const narrow = async (listed: string[]) => {
    const asked = narrowToListedSites(listed);
    try {
      setStatus(
        (await asked)
          ? 'Chrome now gives Steward only the sites listed here.'
          : 'Chrome gave every other site back, and its prompt for the listed sites was declined: they wait here until you allow them again.',
      );
    } catch (e) {
      setStatus(`Could not narrow Chrome’s access: ${(e as Error).message}`);
    }
  };

  return (
    <fieldset>
      <legend>Sites Steward may observe</legend>
      <p class="note">Steward reads only these sites, and Chrome gives it access to each one alone. Everywhere else it injects nothing, and agents can neither see nor act.</p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
      <ul class="plain" aria-label="Allowed sites">
        {allowed === undefined && !error && <li class="muted">Loading…</li>}
        {allowed?.length === 0 && waiting.length === 0 && <li class="muted">No site allowed yet.</li>}
        {allowed?.map((o) => (
          <li key={o}>
            <code>{o}</code>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={`Remove ${o}`}>
              Remove
            </button>
          </li>
        ))}
        {refused.map((o) => (
          <li key={o} data-managed="true">
            <code>{o}</code> <span class="muted">(Set by your organisation: not read)</span>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={`Remove ${o}`}>
              Remove
            </button>
          </li>
        ))}
        {waiting.map((o) => (
          <li key={o}>
            <code>{o}</code> <span class="muted">(Chrome’s access was taken back: not read)</span>{' '}
            <button type="button" class="link" onClick={() => void allow(o)} aria-label={`Allow ${o} again`}>
              Allow again
            </button>{' '}
            <button type="button" class="link" onClick={() => void remove(o)} aria-label={`Remove ${o}`}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {origin && allowed && !allowed.includes(origin) && !waiting.includes(origin) && !refused.includes(origin) && !sites?.tab?.policy && (
        <button type="button" class="secondary" onClick={() => void allow(origin)}>
          Allow {origin}
        </button>
      )}
      <form class="inline-form" onSubmit={allowTyped}>
        <label>
          Allow a site by its address <input type="text" inputMode="url" value={address} placeholder="https://shop.example" onInput={(e) => setAddress((e.target as HTMLInputElement).value)} />
        </label>{' '}
        <button type="submit" class="secondary" disabled={address.trim() === ''}>
          Allow
        </button>
      </form>
      {sites?.broad && allowed && (
        <div class="warn-box">
          <p>
            Chrome still gives Steward access to every site: an earlier version of Steward asked for it at install. Steward reads only the sites listed here; narrowing gives every site back to Chrome
            and asks it for these alone.
          </p>
          <button type="button" class="secondary" onClick={() => void narrow(allowed)}>
            Narrow Chrome’s access to these sites
          </button>
        </div>
      )}
      <p role="status" class="note">
        {status}
      </p>
    </fieldset>
  );
}
