import { t } from '../../base/i18n.ts';
import type { Meter } from '../lib/copilot-run.ts';

/** Steps, tokens and time against the run's budgets: one small meter each, its text beside it. */
export function CopilotBudgets({ meters }: { meters: Meter[] }) {
  return (
    <dl class="budgets" aria-label={t('copilot_budgets')}>
      {meters.map((m) => (
        <div key={m.label} class="budget">
          <dt>{m.label}</dt>
          <dd>
            <meter min={0} max={m.max} value={m.value} low={m.max * 0.7} high={m.max * 0.9} optimum={0} aria-label={t('copilot_meter_used', m.label)} aria-valuetext={m.text} />
            <span>{m.text}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
