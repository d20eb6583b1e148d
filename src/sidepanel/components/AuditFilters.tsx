import { t } from '../../base/i18n.ts';
import type { AuditFilter } from '../lib/audit-groups.ts';
import { outcomeText } from '../lib/labels.ts';

type Facets = { agents: string[]; origins: string[]; actions: string[]; outcomes: string[] };

function Pick({
  id,
  label,
  value,
  options,
  onChange,
  labelOf = (o) => o,
}: {
  id: string;
  label: string;
  value: string;
  options: string[];
  onChange: (v: string) => void;
  labelOf?: (o: string) => string;
}) {
  return (
    <label for={id}>
      {label}
      {/* An empty menu says so rather than offering only "All". */}
      <select id={id} value={value} disabled={options.length === 0} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">{options.length === 0 ? t('activity_filter_none') : t('activity_filter_all')}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Search box and one menu per column of the log; menus offer only values that occur. */
export function AuditFilters({ filter, facets, onChange }: { filter: AuditFilter; facets: Facets; onChange: (f: AuditFilter) => void }) {
  const set = (k: keyof AuditFilter) => (v: string) => onChange({ ...filter, [k]: v });
  return (
    <div class="filters" role="search" aria-label={t('activity_filter_label')}>
      <label for="audit-search" class="wide">
        {t('activity_filter_search')}
        <input id="audit-search" type="search" placeholder={t('activity_filter_search_placeholder')} value={filter.text} onInput={(e) => set('text')(e.currentTarget.value)} />
      </label>
      <Pick id="f-agent" label={t('activity_filter_agent')} value={filter.agent} options={facets.agents} onChange={set('agent')} />
      <Pick id="f-origin" label={t('activity_filter_site')} value={filter.origin} options={facets.origins} onChange={set('origin')} />
      <Pick id="f-action" label={t('activity_filter_action')} value={filter.action} options={facets.actions} onChange={set('action')} />
      <Pick id="f-outcome" label={t('activity_filter_outcome')} value={filter.outcome} options={facets.outcomes} onChange={set('outcome')} labelOf={outcomeText} />
    </div>
  );
}
