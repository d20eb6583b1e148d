import { t } from '../../base/i18n.ts';
import { said } from '../lib/phrases.ts';
import { Words } from './Words.tsx';
import { useEffect, useState } from 'preact/hooks';
import { startCopilot } from '../background-client.ts';
import { copilotError, copilotRunList, rememberRun } from '../copilot-store.ts';
import { currentTabId } from '../current-tab.ts';
import { demoModelLabel, isDemoModel } from '../lib/demo-model.ts';
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
      setStartError(t('copilot_could_not_start', (e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <h2>{t('copilot_heading')}</h2>
      <p class="note model-line" role="status" aria-label={t('copilot_model_label')}>
        {status ? (
          <>
            <Words id="copilot_model" parts={[demo ? <strong class="demo">{demoModelLabel()}</strong> : said(status.model_label_said, status.model_label)]} />
            {' · '}
            {status.ready ? t('copilot_ready') : t('copilot_not_ready', status.detail !== undefined ? said(status.detail_said, status.detail) : t('copilot_not_set_up'))}{' '}
            {!status.ready && (
              <button type="button" class="link nav" onClick={onOpenSettings}>
                {t('copilot_set_up_model')}
              </button>
            )}
          </>
        ) : statusError ? (
          <>
            {t('copilot_status_unknown', statusError)}{' '}
            <button type="button" class="link nav" onClick={onOpenSettings}>
              {t('copilot_settings_link')}
            </button>
          </>
        ) : (
          t('copilot_checking')
        )}
      </p>
      {site && (blocked || (site.origin !== undefined && offeredFor === site.origin)) && <SiteAccessNotice tab={site} error="" onAllowed={reloadSite} />}
      <form class="copilot-goal" onSubmit={(e) => void start(e)} aria-label={t('copilot_form_label')}>
        <label for="copilot-goal">{t('copilot_goal_label')}</label>
        <textarea
          id="copilot-goal"
          rows={2}
          value={goal}
          placeholder={t('copilot_goal_placeholder')}
          disabled={running}
          aria-describedby="copilot-grant"
          onInput={(e) => setGoal(e.currentTarget.value)}
          onKeyDown={submitOnEnter}
        />
        <p class="note" id="copilot-grant">
          {t('copilot_grant', origin ?? t('copilot_this_site'))}
        </p>
        <button type="submit" disabled={busy || running || blocked || !goal.trim() || tabId === undefined}>
          {t('copilot_start')}
        </button>
      </form>
      {(startError || copilotError.value) && (
        <p class="error-text" role="alert">
          {startError || copilotError.value}
        </p>
      )}
      {run ? <CopilotRunView run={run} onOpenSettings={onOpenSettings} onOpenAudit={onOpenAudit} /> : <p class="muted">{t('copilot_no_run')}</p>}
    </>
  );
}
