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
        <option value="">{options.length === 0 ? 'none recorded' : 'All'}</option>
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
    <div class="filters" role="search" aria-label="Filter activity">
      <label for="audit-search" class="wide">
        Search
        <input id="audit-search" type="search" placeholder="action, agent, order id, outcome…" value={filter.text} onInput={(e) => set('text')(e.currentTarget.value)} />
      </label>
      <Pick id="f-agent" label="Agent" value={filter.agent} options={facets.agents} onChange={set('agent')} />
      <Pick id="f-origin" label="Site" value={filter.origin} options={facets.origins} onChange={set('origin')} />
      <Pick id="f-action" label="Action" value={filter.action} options={facets.actions} onChange={set('action')} />
      <Pick id="f-outcome" label="Outcome" value={filter.outcome} options={facets.outcomes} onChange={set('outcome')} labelOf={outcomeText} />
    </div>
  );
}
