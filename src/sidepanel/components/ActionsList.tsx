import type { AvailableAction } from '../../protocol/action.ts';
import { pathLabel, pathMeaning, humanize } from '../lib/labels.ts';

/** Risk words for an action, most serious first; what the policy gateway will weigh. */
function riskOf(a: AvailableAction): Array<{ cls: string; text: string }> {
  const out: Array<{ cls: string; text: string }> = [];
  if (a.payment) out.push({ cls: 'danger', text: 'payment' });
  if (a.consequential) out.push({ cls: 'warn', text: 'consequential' });
  if (a.untrusted_content) out.push({ cls: 'danger', text: 'untrusted output' });
  if (a.read_only) out.push({ cls: 'ok', text: 'read-only' });
  else out.push({ cls: 'warn', text: a.changes?.length ? `changes: ${a.changes.map(humanize).join(', ')}` : 'changes the page or site' });
  out.push(a.requires_approval ? { cls: 'warn', text: 'needs your approval' } : { cls: 'ok', text: 'no approval needed within scope' });
  return out;
}

/**
 * What an agent could do here: each action with its path (contract / WebMCP / adapter / legacy)
 * and risk. Titles and descriptions come from the page or adapter: shown as text only.
 */
export function ActionsList({ names, actions }: { names: readonly string[]; actions: readonly AvailableAction[] | undefined }) {
  if (names.length === 0) return <p class="note">No actions available here.</p>;
  const byName = new Map((actions ?? []).map((a) => [a.action, a] as const));
  return (
    <ul class="actions-list" aria-label="Available actions">
      {names.map((name) => {
        const a = byName.get(name);
        return (
          <li key={name}>
            <div>
              <code>{name}</code>
              {a && (
                <span class="badge path" title={pathMeaning(a.via)}>
                  {pathLabel(a.via)}
                </span>
              )}
            </div>
            {a?.title && <div class="muted">{a.title}</div>}
            {a ? (
              <div class="badges">
                {riskOf(a).map((r) => (
                  <span key={r.text} class={`badge ${r.cls}`}>
                    {r.text}
                  </span>
                ))}
              </div>
            ) : (
              <div class="note">No description of how it runs or its risk.</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
