import { SaidRecord } from './SaidRecord.tsx';
import { t } from '../../base/i18n.ts';
import { useEffect, useState } from 'preact/hooks';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { observeTab } from '../background-client.ts';
import { currentTabId } from '../current-tab.ts';
import { saidWithRecord } from '../lib/phrases.ts';
import { resourceWords } from '../lib/resource-words.ts';
import { ActionsList } from './ActionsList.tsx';
import { ContractSiteBlock } from './ContractSiteBlock.tsx';
import { FactsTable } from './FactsTable.tsx';
import { SiteAccessNotice } from './SiteAccessNotice.tsx';
import { useSiteStatus } from '../use-site-status.ts';
import { StateBlock } from './StateBlock.tsx';
import { ToolsView } from './ToolsView.tsx';

type Shown = { kind: 'loading' } | { kind: 'state'; state: ObservedState } | { kind: 'none'; words: string; record?: string } | { kind: 'error'; message: string };

/** The current tab as Steward sees it: its observed state, the actions an agent could take, and its WebMCP tools. */
export function CurrentTabView() {
  const tabId = currentTabId.value;
  const { sites, error: siteError } = useSiteStatus();
  const site = sites?.tab;
  // On a site Steward may not read there is nothing to observe and no tool to list: the notice says why.
  const readable = site === undefined || site.allowed;
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (tabId === undefined) return setShown({ kind: 'none', words: t('current_no_tab') });
    let alive = true;
    setShown({ kind: 'loading' });
    observeTab(tabId).then(
      (r) =>
        alive &&
        setShown(
          r.state ? { kind: 'state', state: r.state } : r.error !== undefined ? { kind: 'none', ...saidWithRecord(r.error_said, r.error) } : { kind: 'none', words: t('current_cannot_observe') },
        ),
      (e: Error) => alive && setShown({ kind: 'error', message: t('current_could_not_observe', e.message) }),
    );
    return () => {
      alive = false;
    };
  }, [tabId, generation]);

  return (
    <>
      <div class="view-head">
        <h2>{t('current_heading')}</h2>
        <button type="button" class="secondary" onClick={() => setGeneration(generation + 1)} disabled={shown.kind === 'loading'}>
          {t('current_refresh')}
        </button>
      </div>
      <SiteAccessNotice tab={site} error={siteError} onAllowed={() => setGeneration(generation + 1)} />
      {readable && (
        <>
          <ContractSiteBlock onChanged={() => setGeneration((g) => g + 1)} />
          <section aria-labelledby="observed-heading">
            <h3 id="observed-heading">{t('current_what_steward_sees')}</h3>
            {shown.kind === 'loading' && (
              <p class="muted" role="status">
                {t('current_observing')}
              </p>
            )}
            {shown.kind === 'none' && (
              <>
                <p class="muted" role="status">
                  {shown.words}
                </p>
                <SaidRecord record={shown.record} />
              </>
            )}
            {shown.kind === 'error' && (
              <p class="error-text" role="alert">
                {shown.message}
              </p>
            )}
            {shown.kind === 'state' && <Observed state={shown.state} />}
          </section>
          <ToolsView />
        </>
      )}
    </>
  );
}

function Observed({ state: s }: { state: ObservedState }) {
  const about = resourceWords(s.resource, s.resource_identity);
  return (
    <div class="card">
      <p class="resource">
        <strong>{about.name}</strong>
        {s.title && <span class="muted"> · {s.title}</span>}
      </p>
      {about.doubt && <p class="note resource-doubt">{about.doubt}</p>}
      <StateBlock state={s} label={about.name} />
      <h4>{t('current_facts')}</h4>
      <FactsTable facts={s.facts ?? []} />
      <h4>{t('current_available_actions')}</h4>
      <ActionsList names={s.available_actions} actions={s.actions} />
    </div>
  );
}
