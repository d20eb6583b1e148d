import { t } from '../../base/i18n.ts';
import type { Fact } from '../../protocol/observed-state.ts';
import { evidenceLabel, humanize, percent } from '../lib/labels.ts';
import { showValue } from '../lib/values.ts';
import { FullValue } from './InputTable.tsx';

/**
 * Key facts with their provenance: the value, which sources agree and how sure, and who saw
 * something else. Two columns so it stays readable in a narrow panel.
 */
export function FactsTable({ facts }: { facts: readonly Fact[] }) {
  if (facts.length === 0) return <p class="note">{t('tools_no_facts')}</p>;
  return (
    <table class="params facts" aria-label={t('current_facts')}>
      <thead>
        <tr>
          <th scope="col">{t('tools_fact')}</th>
          <th scope="col">{t('tools_value_sources')}</th>
        </tr>
      </thead>
      <tbody>
        {facts.map((f) => (
          <tr key={f.name}>
            <th scope="row">{humanize(f.name)}</th>
            <td>
              <div class="value">
                <FullValue text={showValue(f.value)} label={f.name} />
              </div>
              <div class="muted small">{t('tools_fact_from', f.sources.map((s) => evidenceLabel(s)).join(', '), percent(f.confidence))}</div>
              {f.disagreements?.map((d, i) => (
                <div class="error-text small" key={i}>
                  {t('tools_fact_differs', evidenceLabel(d.source), showValue(d.value))}
                </div>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
