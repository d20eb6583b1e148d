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
        <dt>State</dt>
        <dd>
          <strong title={state.state}>{humanize(state.state)}</strong>
        </dd>
        <dt>Confidence</dt>
        <dd>
          <span class={`conf ${word}`}>
            {percent(state.confidence)} ({word})
          </span>
        </dd>
        <dt>Read via</dt>
        <dd title={pathMeaning(state.source)}>
          {pathLabel(state.source)} <span class="muted">— {pathMeaning(state.source)}</span>
        </dd>
        <dt>Evidence</dt>
        <dd>{state.evidence.map((e) => evidenceLabel(e)).join(', ')}</dd>
        <dt>Observed</dt>
        <dd>
          {ago(state.observed_at, now.value)} <span class="muted">· version {String(state.state_version)}</span>
        </dd>
      </dl>
      <h4>Conflicts</h4>
      <ConflictList conflicts={state.conflicts} label={`Conflicts in ${label}`} />
    </div>
  );
}
