import { t } from '../../base/i18n.ts';
import type { StateSummary } from '../../protocol/observed-state.ts';
import { evidenceLabel, pathLabel, pathMeaning, confidenceWord, humanize, percent } from '../lib/labels.ts';
import { ago } from '../lib/time.ts';
import { now } from '../now.ts';
import { ConflictList } from './ConflictList.tsx';

/**
 * A resource's state as Steward observed it: which path said so, how sure it is, from what
 * evidence, and what disagrees. Shared by approval cards and the current-tab view.
 */
export function StateBlock({ state, label }: { state: StateSummary; label: string }) {
  const word = confidenceWord(state.confidence);
  return (
    <div class="state-block">
      <dl class="kv">
        <dt>{t('state_state')}</dt>
        <dd>
          <strong title={state.state}>{humanize(state.state)}</strong>
        </dd>
        <dt>{t('state_confidence')}</dt>
        <dd>
          <span class={`conf ${word}`}>
            {percent(state.confidence)} ({t(`confidence_${word}`)})
          </span>
        </dd>
        <dt>{t('state_read_via')}</dt>
        <dd title={pathMeaning(state.source)}>
          {pathLabel(state.source)} <span class="muted">— {pathMeaning(state.source)}</span>
        </dd>
        <dt>{t('state_evidence')}</dt>
        <dd>{state.evidence.map((e) => evidenceLabel(e)).join(', ')}</dd>
        <dt>{t('state_observed')}</dt>
        <dd>
          {ago(state.observed_at, now.value)} <span class="muted">· {t('state_version', String(state.state_version))}</span>
        </dd>
      </dl>
      <h4>{t('state_conflicts')}</h4>
      <ConflictList conflicts={state.conflicts} label={t('state_conflicts_in', label)} />
    </div>
  );
}
