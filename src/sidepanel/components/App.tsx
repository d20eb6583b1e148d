import { pluralOf, t } from '../../base/i18n.ts';
import { useSignalEffect } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import { approvalsLoaded, pendingApprovals } from '../approvals-store.ts';
import { currentTabTitle } from '../current-tab.ts';
import { pendingPairings } from '../pairings-store.ts';
import { ActivityView } from './ActivityView.tsx';
import { ApprovalsView } from './ApprovalsView.tsx';
import { CopilotView } from './CopilotView.tsx';
import { CurrentTabView } from './CurrentTabView.tsx';
import { SettingsView } from './SettingsView.tsx';
import { Tabs, type TabSpec } from './Tabs.tsx';
import { TokensView } from './TokensView.tsx';
import { WelcomeCard } from './WelcomeCard.tsx';
import { welcomeShown } from '../welcome-store.ts';
import { PolicyBanner } from './PolicyBanner.tsx';
import { RefusalDetails } from './RefusalDetails.tsx';

type ViewId = 'copilot' | 'approvals' | 'activity' | 'tokens' | 'tab' | 'settings';
const VIEW_IDS: readonly ViewId[] = ['copilot', 'approvals', 'activity', 'tokens', 'tab', 'settings'];

/** `?view=` pins the first view (tests, links from a notification). */
function requestedView(): ViewId | undefined {
  const v = new URLSearchParams(location.search).get('view');
  return VIEW_IDS.find((id) => id === v);
}

export function App() {
  const [view, setView] = useState<ViewId | undefined>(requestedView());
  /** The agent the Activity view opens filtered to (a run's "Audit entries of this run"). */
  const [auditAgent, setAuditAgent] = useState('');
  const select = (id: ViewId) => {
    setAuditAgent('');
    setView(id);
  };
  const go: Go = {
    settings: () => select('settings'),
    audit: (agentId) => {
      setView('activity');
      setAuditAgent(agentId);
    },
  };
  const count = pendingApprovals.value.length;
  const pairings = pendingPairings.value.length;

  // Open on what needs the person: waiting approvals first, otherwise the co-pilot. Decided
  // once; a card arriving later never yanks the view away from what they are doing.
  useSignalEffect(() => {
    if (approvalsLoaded.value && view === undefined) setView(pendingApprovals.value.length + pendingPairings.value.length > 0 ? 'approvals' : 'copilot');
  });

  // A new view starts at its top, not at the previous view's scroll position.
  useEffect(() => window.scrollTo(0, 0), [view]);

  const tabs: Array<TabSpec<ViewId>> = [
    { id: 'copilot', label: t('tab_copilot') },
    { id: 'approvals', label: t('tab_approvals'), badge: count + pairings, badgeLabel: t('tab_badge_waiting') },
    { id: 'activity', label: t('tab_activity') },
    { id: 'tokens', label: t('tab_tokens') },
    { id: 'tab', label: t('tab_this_tab') },
    { id: 'settings', label: t('tab_settings') },
  ];

  return (
    <>
      <header class="app">
        <img src="/icons/icon-32.png" width="20" height="20" alt="" />
        <h1>Steward</h1>
        <span class="tab" title={currentTabTitle.value}>
          {currentTabTitle.value}
        </span>
      </header>
      {/* Everything below the header is the panel's main content: one landmark a screen reader can jump to. */}
      <main>
        <PolicyBanner />
        <RefusalDetails />
        {/* First run: above the views, so every control stays where it is. */}
        {welcomeShown.value && view !== undefined && <WelcomeCard onOpen={select} />}
        {/* Announces new cards even while another view is open. */}
        <p class="sr-only" role="status">
          {count > 0 ? (pluralOf(count) === 'one' ? t('app_waiting_one', count) : t('app_waiting_other', count)) : ''}
          {pairings > 0 ? ` ${pluralOf(pairings) === 'one' ? t('app_pairing_one', pairings) : t('app_pairing_other', pairings)}` : ''}
        </p>
        {view === undefined ? (
          <p class="muted loading">{t('app_loading')}</p>
        ) : (
          <>
            <Tabs tabs={tabs} selected={view} onSelect={select} label={t('tabs_label')} />
            {VIEW_IDS.map((id) => (
              <section key={id} role="tabpanel" id={`panel-${id}`} aria-labelledby={`tab-${id}`} hidden={id !== view} tabIndex={0} class="view">
                {id === view && <ViewBody id={id} go={go} auditAgent={auditAgent} />}
              </section>
            ))}
          </>
        )}
      </main>
    </>
  );
}

interface Go {
  settings: () => void;
  audit: (agentId: string) => void;
}

function ViewBody({ id, go, auditAgent }: { id: ViewId; go: Go; auditAgent: string }) {
  switch (id) {
    case 'copilot':
      return <CopilotView onOpenSettings={go.settings} onOpenAudit={go.audit} />;
    case 'approvals':
      return <ApprovalsView />;
    case 'activity':
      return <ActivityView key={auditAgent} agent={auditAgent} />;
    case 'tokens':
      return <TokensView />;
    case 'tab':
      return <CurrentTabView />;
    case 'settings':
      return <SettingsView />;
  }
}
