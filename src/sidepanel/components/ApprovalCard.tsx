import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { said } from '../lib/phrases.ts';
import type { ApprovalDecision, ApprovalRequest, BoundForm } from '../../protocol/approval.ts';
import { decideApproval } from '../background-client.ts';
import { cardWords, decideErrorText, type CardWords } from '../lib/approval-words.ts';
import { actionPathLabel, pathMeaning } from '../lib/labels.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';
import { actingWords } from '../lib/resource-words.ts';
import { settings } from '../settings.ts';
import { FullValue, InputTable } from './InputTable.tsx';
import { StateBlock } from './StateBlock.tsx';

/** The person acting here; Steward has a single local user. */
const USER = 'user:local';

export type Decided = { request_id: string; outcome: 'approved' | 'denied'; headline: string };

/**
 * One approval card, built only from the service worker's ApprovalRequest (the real action): the
 * decision first (one sentence, the facts that change it, Approve / Deny), everything else behind
 * "Details". Page- and agent-derived text is rendered as text; the agent's rationale is labelled
 * as its claim. Enter on the focused card approves it and Escape denies it; the buttons are native.
 */
export function ApprovalCard({
  request: r,
  current,
  optionLabels,
  onDecided,
}: {
  request: ApprovalRequest;
  current: Map<string, unknown>;
  /** The page's option labels, from a current observation of the same resource. */
  optionLabels?: readonly string[];
  onDecided: (d: Decided) => void;
}) {
  const w = cardWords(r, optionLabels ? { optionLabels } : {});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const left = msLeft(r.expires_at, now.value);
  const expired = left === 0;
  const windowMinutes = settings.value.approval_window_minutes;
  // The service worker decides whether a window may stand for this action; a card that says
  // nothing (an older one) offers none.
  const windowOffered = r.window?.offered === true;
  const noWindowWhy = r.window && !r.window.offered ? said(r.window.why_not_said, r.window.why_not) : t('card_no_window_unsaid');
  const id = r.request_id;

  const decide = async (kind: 'approve' | 'deny', windowMs?: number) => {
    if (busy || expired) return;
    setBusy(true);
    setError('');
    const at = new Date().toISOString();
    // An approval echoes the input hash and state version this card showed (stale cards are refused).
    const decision: ApprovalDecision =
      kind === 'approve'
        ? { request_id: id, decision: 'approve', decided_by: USER, decided_at: at, input_hash: r.input_hash, state_version: r.state.state_version }
        : { request_id: id, decision: 'deny', decided_by: USER, decided_at: at };
    try {
      const result = await decideApproval(decision, windowMs);
      onDecided({ request_id: id, outcome: result.status, headline: w.headline });
    } catch (e) {
      setError(decideErrorText(e as Error & { code?: unknown }));
      setBusy(false);
    }
  };

  // Enter only on the card itself (a focused button, summary or scroll box keeps its own Enter);
  // Escape from anywhere in the card.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.key === 'Enter' && e.target === e.currentTarget) {
      e.preventDefault();
      void decide('approve');
    } else if (e.key === 'Escape') {
      e.preventDefault();
      void decide('deny');
    }
  };

  return (
    <article
      class={`card approval${expired ? ' expired' : ''}`}
      aria-labelledby={`h-${id}`}
      aria-describedby={`facts-${id} exp-${id} keys-${id}`}
      aria-keyshortcuts="Enter Escape"
      data-request-id={id}
      data-action={r.action}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <h3 id={`h-${id}`}>{w.headline}</h3>
      <ul class="facts-list" id={`facts-${id}`} aria-label={t('card_facts_label')}>
        {w.facts.map((f, i) => (
          <li key={i} class={f.kind} data-testid={f.testid}>
            {f.text}
          </li>
        ))}
        {w.values.length === 0 ? (
          <li class="info">{t('card_sends_nothing')}</li>
        ) : (
          <li class="info">
            {t('card_will_send')}
            <dl class="kv sends" aria-label={t('card_values_label')}>
              {w.values.map((v, i) => (
                <Fragment key={i}>
                  <dt>{v.label}</dt>
                  <dd title={v.sent ? t('card_sent_as', v.sent) : undefined}>
                    <FullValue text={v.value} label={v.label} />
                  </dd>
                </Fragment>
              ))}
            </dl>
          </li>
        )}
      </ul>

      <div class="actions" role="group" aria-label={t('card_decide_label')}>
        <button type="button" disabled={busy || expired} onClick={() => void decide('approve')}>
          {t('card_approve')}
        </button>
        {windowOffered && (
          <button type="button" class="secondary" disabled={busy || expired} onClick={() => void decide('approve', windowMinutes * 60_000)}>
            {t('card_approve_for', windowMinutes)}
          </button>
        )}
        <button type="button" class="danger" disabled={busy || expired} onClick={() => void decide('deny')}>
          {t('card_deny')}
        </button>
      </div>
      <p id={`exp-${id}`} class={expired ? 'error-text expiry' : left < 60_000 ? 'expiry soon' : 'expiry'}>
        {expired ? (
          t('card_expired')
        ) : (
          <>
            {t('card_expires_in')} <span role="timer">{countdown(left)}</span> {t('card_expires_at', clockTime(r.expires_at, now.value))}
          </>
        )}
      </p>
      <p id={`keys-${id}`} class="sr-only">
        {t('card_keys')}
      </p>
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}

      <details class="card-details">
        <summary>{t('card_details')}</summary>
        <CardDetails request={r} words={w} current={current} windowOffered={windowOffered} windowMinutes={windowMinutes} noWindowWhy={noWindowWhy} />
      </details>
    </article>
  );
}

/** What a person may want to check but rarely decides on: who exactly, how it runs, the raw input, the state and its evidence. */
function CardDetails({
  request: r,
  words: w,
  current,
  windowOffered,
  windowMinutes,
  noWindowWhy,
}: {
  request: ApprovalRequest;
  words: CardWords;
  current: Map<string, unknown>;
  windowOffered: boolean;
  windowMinutes: number;
  noWindowWhy: string;
}) {
  const on = actingWords(r);
  return (
    <>
      {w.otherReasons.length > 0 && (
        <>
          <h4>{t('card_also_why')}</h4>
          <ul class="reasons">
            {w.otherReasons.map((text) => (
              <li key={text}>{text}</li>
            ))}
          </ul>
        </>
      )}
      <dl class="kv">
        <dt>{t('card_agent')}</dt>
        <dd>
          <code>{r.agent_id}</code>
        </dd>
        <dt>{t('card_site')}</dt>
        <dd>{r.origin}</dd>
        <dt>{t('card_action')}</dt>
        <dd>
          <code>{r.action}</code> {t('card_on', on.name)}
        </dd>
        <dt>{t('card_runs_via')}</dt>
        <dd title={pathMeaning(r.via)}>
          <span data-testid="action-path">{actionPathLabel(r.via)}</span> <span class="muted">— {pathMeaning(r.via)}</span>
        </dd>
      </dl>
      <p class="note">{windowOffered ? t('card_window_note', windowMinutes, on.name) : t('card_no_window', noWindowWhy)}</p>

      <h4>{t('card_exact_input')}</h4>
      <InputTable input={r.input} current={current} label={t('card_input_of', r.action)} />
      {r.form && <FormValues form={r.form} />}

      <h4>{t('card_current_state')}</h4>
      <StateBlock state={r.state} label={on.name} />

      {r.rationale && (
        <figure class="claim">
          <figcaption>{t('card_rationale')}</figcaption>
          <blockquote>{r.rationale}</blockquote>
        </figure>
      )}
    </>
  );
}

/** The values a click in a form would submit: bound into the approval, refused if they change. */
function FormValues({ form }: { form: BoundForm }) {
  const name = form.name ? `“${form.name}”` : t('card_the_form');
  return (
    <>
      <h4>{t('card_form_heading')}</h4>
      <p class="note">{t('card_form_note', name)}</p>
      <table class="params" aria-label={t('card_form_values_of', form.name ?? form.ref)}>
        <thead>
          <tr>
            <th scope="col">{t('card_field')}</th>
            <th scope="col">{t('card_value')}</th>
          </tr>
        </thead>
        <tbody>
          {form.fields.map((f) => (
            <tr key={f.ref}>
              <th scope="row">{f.label || f.name || f.ref}</th>
              <td class="value">
                <FieldValue field={f} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

const BUTTON_TYPES = new Set(['submit', 'button', 'reset', 'image']);

function FieldValue({ field: f }: { field: BoundForm['fields'][number] }) {
  if (f.check) return <>{f.check === 'checked' ? `☑ ${t('value_checked')}` : t('value_partly_checked')}</>;
  if (f.value !== undefined) return <FullValue text={f.value} label={f.label || f.name} />;
  if (f.type === 'password') return <span class="muted">{t('value_secret')}</span>;
  if (f.type === 'checkbox' || f.type === 'radio') return <>☐ {t('value_not_checked')}</>;
  if (BUTTON_TYPES.has(f.type)) return <span class="muted">{t('value_button')}</span>;
  return <span class="muted">{t('value_empty')}</span>;
}
