import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { pluralOf, t } from '../../base/i18n.ts';
import type { AuditEntry, AuditKind } from '../../protocol/audit.ts';
import { ErrorCode } from '../../protocol/errors.ts';
import type { AuditGroup } from '../lib/audit-groups.ts';
import { actionPathLabel, humanize, outcomeText, pathMeaning } from '../lib/labels.ts';
import { said } from '../lib/phrases.ts';
import { clockTime } from '../lib/time.ts';
import { showValue } from '../lib/values.ts';
import { now } from '../now.ts';

/** What kind of step an entry records, in words (`approval request`). */
const kindText = (kind: AuditKind): string => t(`activity_kind_${kind}`);

/** Why an action did not go through, in the person's words: the page step's refusal as recorded, else what its code means (the code itself is in its steps). */
function whyText(g: AuditGroup): string {
  const code = ErrorCode.safeParse(g.error_code);
  const meaning = code.success ? t(`said_error_${code.data}`) : g.error_code!;
  return g.said ? said(g.said, meaning) : meaning;
}

/** One action in the log: a summary row, and its full chain of steps behind a disclosure button. */
export function AuditGroupItem({ group: g }: { group: AuditGroup }) {
  const [open, setOpen] = useState(false);
  const stepsId = `steps-${g.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const first = g.steps[0]!;
  const folded = !g.action && g.steps.length > 1 && g.steps.every((s) => s.kind === 'token');
  const title = g.action
    ? g.resource
      ? t('activity_title_on', g.action, g.resource)
      : g.action
    : folded
      ? t('activity_token_changes', g.steps.length)
      : `${kindText(first.kind)}${first.token_id ? ` ${first.token_id}` : ''}`;
  return (
    <li class="audit-group">
      <button type="button" class="disclosure" aria-expanded={open} aria-controls={stepsId} onClick={() => setOpen(!open)}>
        <span class="marker" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span class="title">{title}</span>
        <span class={`badge tone-${g.tone}`}>{outcomeText(g.outcome)}</span>
        {g.via && (
          <span class="badge path" data-testid="action-path" title={pathMeaning(g.via)}>
            {actionPathLabel(g.via)}
          </span>
        )}
        {g.error_code && (
          <span class="why" data-testid="activity-why">
            {whyText(g)}
          </span>
        )}
        <span class="meta">
          {g.agent_id}
          {g.origin ? ` · ${g.origin}` : ''} · {clockTime(g.last_at, now.value)} ·{' '}
          {pluralOf(g.steps.length) === 'one' ? t('activity_steps_one', g.steps.length) : t('activity_steps_other', g.steps.length)}
        </span>
      </button>
      {open && (
        <ol class="steps" id={stepsId} aria-label={t('activity_steps_of', title)}>
          {g.steps.map((s, i) => (
            <Step key={s.seq} step={s} previous={g.steps[i - 1]} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** One step; token and input hash are shown only where they change, so the chain stays readable. */
function Step({ step: s, previous: p }: { step: AuditEntry; previous: AuditEntry | undefined }) {
  const extra: Array<[string, string]> = [];
  if (s.error_code) extra.push([t('activity_step_error'), s.error_code]);
  if (s.state_version_before !== undefined) extra.push([t('activity_step_state_before'), String(s.state_version_before)]);
  if (s.state_version_after !== undefined) extra.push([t('activity_step_state_after'), String(s.state_version_after)]);
  if (s.receipt_id) extra.push([t('activity_step_receipt'), s.receipt_id]);
  if (s.token_id && s.token_id !== p?.token_id) extra.push([t('activity_step_token'), s.token_id]);
  if (s.input_hash && s.input_hash !== p?.input_hash) extra.push([t('activity_step_input_hash'), `${s.input_hash.slice(0, 19)}…`]);
  // The agent's own words stay marked as its claim here too.
  for (const [k, v] of Object.entries(s.details ?? {})) extra.push([k === 'rationale' ? t('activity_step_agent_claim') : humanize(k), showValue(v)]);
  return (
    <li>
      <div>
        <span class="seq">#{s.seq}</span> <strong>{kindText(s.kind)}</strong>
        {s.outcome && <span> — {outcomeText(s.outcome)}</span>} <span class="muted">{clockTime(s.at, now.value)}</span>
      </div>
      {extra.length > 0 && (
        <dl class="kv small">
          {extra.map(([k, v], i) => (
            <Fragment key={i}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </li>
  );
}
