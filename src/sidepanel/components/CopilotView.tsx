import { useEffect, useState } from 'preact/hooks';
import { startCopilot } from '../background-client.ts';
import { copilotError, copilotRunList, rememberRun } from '../copilot-store.ts';
import { currentTabId } from '../current-tab.ts';
import { isDemoModel, DEMO_MODEL_LABEL } from '../lib/demo-model.ts';
import { isActive, runForTab } from '../lib/copilot-run.ts';
import { settings } from '../settings.ts';
import { useModelStatus } from '../use-model-status.ts';
import { useSiteStatus } from '../use-site-status.ts';
import { CopilotRunView } from './CopilotRunView.tsx';
import { SiteAccessNotice } from './SiteAccessNotice.tsx';
import { submitOnEnter } from '../lib/submit-on-enter.ts';

/**
 * The co-pilot, for the current tab: a goal box (Enter starts, Shift+Enter is a new line), the
 * model it will use, and the tab's run streaming live. The run lives in the service worker, so
 * closing the panel does not stop it.
 */
export function CopilotView({ onOpenSettings, onOpenAudit }: { onOpenSettings: () => void; onOpenAudit: (agentId: string) => void }) {
  const tabId = currentTabId.value;
  const { sites, reload: reloadSite } = useSiteStatus();
  const site = sites?.tab;
  const origin = site?.origin;
  // The co-pilot reads only allowed sites: where it may not, the Allow button is right here. The
  // notice stays for that site once offered: the site list may change (and the tab read as
  // allowed) before Chrome's answer comes back, and the notice is what says it worked.
  const blocked = site?.origin !== undefined && (!site.allowed || site.waiting === true);
  const [offeredFor, setOfferedFor] = useState<string | undefined>(undefined);
  useEffect(() => {
    if (blocked) setOfferedFor(site?.origin);
  }, [blocked, site?.origin]);
  const run = runForTab(copilotRunList.value, tabId);
  const running = run !== undefined && isActive(run);
  // Steward calls the endpoint: "ready" only when it answered.
  const { status, error: statusError } = useModelStatus({ check: true });
  const [goal, setGoal] = useState('');
  const [busy, setBusy] = useState(false);
  const [startError, setStartError] = useState('');
  const demo = isDemoModel(settings.value.copilot.model);

  const start = async (event?: Event) => {
    event?.preventDefault();
    const text = goal.trim();
    if (!text || tabId === undefined || busy || running) return;
    setBusy(true);
    setStartError('');
    try {
      rememberRun((await startCopilot(tabId, text)).run);
      setGoal('');
    } catch (e) {
      setStartError(`Could not start: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>Co-pilot</h2>
      <p class="note model-line" role="status" aria-label="Co-pilot model">
        {status ? (
          <>
            Model: {demo ? <strong class="demo">{DEMO_MODEL_LABEL}</strong> : status.model_label}
            {status.ready ? ' · ready' : <> · not ready: {status.detail ?? 'it is not set up yet.'}</>}{' '}
            {!status.ready && (
              <button type="button" class="link nav" onClick={onOpenSettings}>
                Set up the model
              </button>
            )}
          </>
        ) : statusError ? (
          <>
            The model’s status is unknown: {statusError}{' '}
            <button type="button" class="link nav" onClick={onOpenSettings}>
              Co-pilot settings
            </button>
          </>
        ) : (
          'Checking the model…'
        )}
      </p>
      {site && (blocked || (site.origin !== undefined && offeredFor === site.origin)) && <SiteAccessNotice tab={site} error="" onAllowed={reloadSite} />}
      <form class="copilot-goal" onSubmit={(e) => void start(e)} aria-label="Give the co-pilot a goal">
        <label for="copilot-goal">What should the co-pilot do on this page?</label>
        <textarea
          id="copilot-goal"
          rows={2}
          value={goal}
          placeholder="e.g. cancel order ORD-1024"
          disabled={running}
          aria-describedby="copilot-grant"
          onInput={(e) => setGoal(e.currentTarget.value)}
          onKeyDown={submitOnEnter}
        />
        <p class="note" id="copilot-grant">
          Steward will give this run a token for {origin ?? 'this tab’s site'} only; consequential actions still need your approval. Enter starts, Shift+Enter adds a line.
        </p>
        <button type="submit" disabled={busy || running || blocked || !goal.trim() || tabId === undefined}>
          Start
        </button>
      </form>
      {(startError || copilotError.value) && (
        <p class="error-text" role="alert">
          {startError || copilotError.value}
        </p>
      )}
      {run ? <CopilotRunView run={run} onOpenSettings={onOpenSettings} onOpenAudit={onOpenAudit} /> : <p class="muted">No run on this tab yet. Type a goal above and press Enter.</p>}
    </>
  );
}
