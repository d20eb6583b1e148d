import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import type { ObservedState } from '../../protocol/observed-state.ts';
import { approvalsError, forgetApproval, pendingApprovals, reloadApprovals } from '../approvals-store.ts';
import { observeTab } from '../background-client.ts';
import { currentTabId } from '../current-tab.ts';
import { optionLabelsOf } from '../lib/approval-words.ts';
import { currentValues } from '../lib/values.ts';
import { ApprovalCard, type Decided } from './ApprovalCard.tsx';
import { PairingList } from './PairingList.tsx';

/**
 * The approval queue, oldest first. After a decision, focus moves to the card that took the
 * decided card's place (or the one before it, or the heading when the queue is empty), so a
 * keyboard user can work through the queue without hunting for it.
 */
export function ApprovalsView() {
  const pending = pendingApprovals.value;
  const heading = useRef<HTMLHeadingElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const focusIndex = useRef<number | undefined>(undefined);
  const [announce, setAnnounce] = useState('');
  const observed = useCurrentObservation(pending.length);

  useLayoutEffect(() => {
    const index = focusIndex.current;
    if (index === undefined) return;
    focusIndex.current = undefined;
    const cards = list.current?.querySelectorAll<HTMLElement>('article[data-request-id]') ?? [];
    const next = cards[Math.min(index, cards.length - 1)];
    (next ?? heading.current)?.focus();
  }, [pending]);

  const onDecided = (d: Decided) => {
    focusIndex.current = Math.max(
      0,
      pending.findIndex((x) => x.request_id === d.request_id),
    );
    setAnnounce(d.outcome === 'approved' ? t('approvals_announce_approved', d.headline) : t('approvals_announce_denied', d.headline));
    forgetApproval(d.request_id);
    void reloadApprovals();
  };

  return (
    <>
      <h2 id="approvals-heading" ref={heading} tabIndex={-1}>
        {t('approvals_heading')}
      </h2>
      <p class="sr-only" role="status">
        {announce}
      </p>
      {approvalsError.value && (
        <p class="error-text" role="alert">
          {approvalsError.value}
        </p>
      )}
      {announce && <p class="note">{announce}</p>}
      {pending.length === 0 ? (
        <p class="muted">{t('approvals_empty')}</p>
      ) : (
        <p class="muted">{pluralOf(pending.length) === 'one' ? t('approvals_waiting_one', pending.length) : t('approvals_waiting_other', pending.length)}</p>
      )}
      <PairingList />
      <div class="stack" ref={list}>
        {pending.map((r) => {
          // Current values only from an observation of this very resource.
          const same = observed && observed.resource.type === r.resource.type && observed.resource.id === r.resource.id;
          return same ? (
            <ApprovalCard key={r.request_id} request={r} current={currentValues(r.input, observed)} optionLabels={optionLabelsOf(observed)} onDecided={onDecided} />
          ) : (
            <ApprovalCard key={r.request_id} request={r} current={new Map()} onDecided={onDecided} />
          );
        })}
      </div>
    </>
  );
}

/** A fresh observation of the current tab while cards are waiting (for "now on the page" values). */
function useCurrentObservation(waiting: number): ObservedState | null {
  const [state, setState] = useState<ObservedState | null>(null);
  const tabId = currentTabId.value;
  const active = waiting > 0;
  useEffect(() => {
    if (!active || tabId === undefined) return;
    let alive = true;
    observeTab(tabId).then(
      (r) => alive && setState(r.state),
      () => alive && setState(null),
    );
    return () => {
      alive = false;
    };
  }, [tabId, active, waiting]);
  return state;
}
