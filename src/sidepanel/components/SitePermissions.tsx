import { useEffect, useState } from 'preact/hooks';
import { useCurrentOrigin } from '../use-current-origin.ts';

/** Match pattern for one origin: `https://shop.example/*`. */
const patternFor = (origin: string) => `${origin}/*`;

/**
 * Sites Steward may observe, granted one at a time through optional host permissions. Needs
 * `optional_host_permissions` in the manifest; without it the section says so instead of
 * offering a button that cannot work.
 */
export function SitePermissions() {
  const declared = chrome.runtime.getManifest().optional_host_permissions ?? [];
  const origin = useCurrentOrigin();
  const [granted, setGranted] = useState<string[] | undefined>(undefined);
  const [status, setStatus] = useState('');

  const load = () => chrome.permissions.getAll().then((p) => setGranted((p.origins ?? []).filter((o) => !isContentScriptMatch(o))));
  useEffect(() => {
    void load();
    const changed = () => void load();
    chrome.permissions.onAdded.addListener(changed);
    chrome.permissions.onRemoved.addListener(changed);
    return () => {
      chrome.permissions.onAdded.removeListener(changed);
      chrome.permissions.onRemoved.removeListener(changed);
    };
  }, []);

  const request = async () => {
    if (!origin) return;
    setStatus('');
    try {
      // Must run inside the click: Chrome asks the person, and only for a user gesture.
      const ok = await chrome.permissions.request({ origins: [patternFor(origin)] });
      setStatus(ok ? `Steward may now observe ${origin}.` : `Not granted: ${origin} stays off-limits.`);
    } catch (e) {
      setStatus(`Could not ask for ${origin}: ${(e as Error).message}`);
    }
  };
  const remove = async (pattern: string) => {
    const ok = await chrome.permissions.remove({ origins: [pattern] }).catch(() => false);
    setStatus(ok ? `Removed ${pattern}.` : `Could not remove ${pattern}: it is part of Steward's required permissions.`);
  };

  return (
    <fieldset>
      <legend>Sites Steward may observe</legend>
      {declared.length === 0 ? (
        <p class="note warn-box" role="note">
          This build of Steward does not declare optional site access (<code>optional_host_permissions</code> in its manifest), so sites cannot be
          granted one by one here. Steward currently reads every http(s) page you open.
        </p>
      ) : (
        <>
          <p class="note">Steward observes only the sites you allow here.</p>
          <ul class="plain" aria-label="Allowed sites">
            {granted === undefined && <li class="muted">Loading…</li>}
            {granted?.length === 0 && <li class="muted">No site allowed yet.</li>}
            {granted?.map((p) => (
              <li key={p}>
                <code>{p}</code>{' '}
                <button type="button" class="link" onClick={() => void remove(p)} aria-label={`Remove ${p}`}>
                  Remove
                </button>
              </li>
            ))}
          </ul>
          <button type="button" class="secondary" disabled={!origin} onClick={() => void request()}>
            {origin ? `Allow ${origin}` : 'Allow this site'}
          </button>
          {!origin && <p class="note">Open a web page in this window to allow its site.</p>}
        </>
      )}
      <p role="status" class="note">
        {status}
      </p>
    </fieldset>
  );
}

/** The blanket patterns content scripts are declared with are not per-site grants. */
function isContentScriptMatch(pattern: string): boolean {
  return pattern === 'http://*/*' || pattern === 'https://*/*' || pattern === '<all_urls>';
}
