import { t } from '../../base/i18n.ts';
import type { AvailableAction } from '../../protocol/action.ts';
import { pathLabel, pathMeaning, humanize } from '../lib/labels.ts';

/** Risk words for an action, most serious first; what the policy gateway will weigh. */
function riskOf(a: AvailableAction): Array<{ cls: string; text: string }> {
  const out: Array<{ cls: string; text: string }> = [];
  if (a.payment) out.push({ cls: 'danger', text: t('risk_payment') });
  if (a.consequential) out.push({ cls: 'warn', text: t('risk_consequential') });
  if (a.untrusted_content) out.push({ cls: 'danger', text: t('risk_untrusted_output') });
  if (a.read_only) out.push({ cls: 'ok', text: t('risk_read_only') });
  else out.push({ cls: 'warn', text: a.changes?.length ? t('risk_changes', a.changes.map(humanize).join(', ')) : t('risk_changes_page') });
  out.push(a.requires_approval ? { cls: 'warn', text: t('risk_needs_approval') } : { cls: 'ok', text: t('risk_no_approval') });
  return out;
}

/**
 * What an agent could do here: each action with its path (contract / WebMCP / adapter / legacy)
 * and risk. Titles and descriptions come from the page or adapter: shown as text only.
 */
export function ActionsList({ names, actions }: { names: readonly string[]; actions: readonly AvailableAction[] | undefined }) {
  if (names.length === 0) return <p class="note">{t('actions_none')}</p>;
  const byName = new Map((actions ?? []).map((a) => [a.action, a] as const));
  return (
    <ul class="actions-list" aria-label={t('actions_label')}>
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
              <div class="note">{t('actions_no_description')}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
