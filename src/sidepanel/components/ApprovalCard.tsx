import { useState } from 'preact/hooks';
import type { ApprovalDecision, ApprovalRequest, BoundForm } from '../../protocol/approval.ts';
import { decideApproval } from '../background-client.ts';
import { ACTION_PATH_LABEL, PATH_MEANING, REASON_TEXT } from '../lib/labels.ts';
import { clockTime, countdown, msLeft } from '../lib/time.ts';
import { now } from '../now.ts';
import { actingWords } from '../lib/resource-words.ts';
import { settings } from '../settings.ts';
import { FullValue, InputTable } from './InputTable.tsx';
import { StateBlock } from './StateBlock.tsx';

/** The person acting here; Steward has a single local user. */
const USER = 'user:local';

export type Decided = { request_id: string; outcome: 'approved' | 'denied' };

/**
 * One approval card, built only from the service worker's ApprovalRequest (the real action).
 * Everything page- or agent-derived is rendered as text; the agent's rationale is labelled as
 * its claim. Buttons are native, so Enter and Space work and focus is visible.
 */
export function ApprovalCard({ request: r, current, onDecided }: { request: ApprovalRequest; current: Map<string, unknown>; onDecided: (d: Decided) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const left = msLeft(r.expires_at, now.value);
  const expired = left === 0;
  const windowMinutes = settings.value.approval_window_minutes;
  // The service worker decides whether a window may stand for this action; a card that says
  // nothing (an older one) offers none.
  const windowOffered = r.window?.offered === true;
  const noWindowWhy = r.window && !r.window.offered ? r.window.why_not : 'this card does not say that a period may be approved';
  const id = r.request_id;
  const on = actingWords(r);

  const decide = async (kind: 'approve' | 'deny', windowMs?: number) => {
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
      onDecided({ request_id: id, outcome: result.status });
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  return (
    <article class={`card approval${expired ? ' expired' : ''}`} aria-labelledby={`h-${id}`} aria-describedby={`exp-${id}`} data-request-id={id} tabIndex={-1}>
      <h3 id={`h-${id}`}>
        {r.action} <span class="on">on</span> {on.name}
      </h3>
      {on.doubt && <p class="note resource-doubt">{on.doubt}</p>}
      {r.prior_step && (
        <p class="note prior-step" data-testid="prior-step">
          This answers what the page asked after the agent’s previous step, <strong>{r.prior_step.action}</strong> on the {r.prior_step.target} (at {clockTime(r.prior_step.at, now.value)}). Both are
          the agent’s: the page’s check was meant for you.
        </p>
      )}
      {r.sends_to && (
        <p class="note sends-to" data-testid="sends-to">
          The form sends what it holds to another site: <strong>{r.sends_to}</strong> (not {r.origin}).
        </p>
      )}
      <dl class="kv">
        <dt>Agent</dt>
        <dd>
          <code>{r.agent_id}</code>
        </dd>
        <dt>Site</dt>
        <dd>{r.origin}</dd>
        <dt>Runs via</dt>
        <dd title={PATH_MEANING[r.via]}>
          <span data-testid="action-path">{ACTION_PATH_LABEL[r.via]}</span> <span class="muted">— {PATH_MEANING[r.via]}</span>
        </dd>
      </dl>

      <h4>Why you are asked</h4>
      <ul class="reasons">
        {r.reasons.map((x) => (
          <li key={x.code}>
            {REASON_TEXT[x.code]}
            {x.detail && <span class="muted"> — {x.detail}</span>}
          </li>
        ))}
      </ul>

      <h4>Exact input</h4>
      <InputTable input={r.input} current={current} label={`Input of ${r.action}`} />

      {r.form && <FormValues form={r.form} />}

      <h4>Current state</h4>
      <StateBlock state={r.state} label={on.name} />

      {r.rationale && (
        <figure class="claim">
          <figcaption>The agent’s explanation — its claim, not checked by Steward:</figcaption>
          <blockquote>{r.rationale}</blockquote>
        </figure>
      )}

      <p id={`exp-${id}`} class={expired ? 'error-text expiry' : left < 60_000 ? 'expiry soon' : 'expiry'}>
        {expired ? (
          'Expired: the agent was refused and must ask again.'
        ) : (
          <>
            Expires in <span role="timer">{countdown(left)}</span> (at {clockTime(r.expires_at, now.value)})
          </>
        )}
      </p>

      <div class="actions" role="group" aria-label={`Decide on ${r.action}`}>
        <button type="button" disabled={busy || expired} onClick={() => void decide('approve')}>
          Approve
        </button>
        {windowOffered && (
          <button type="button" class="secondary" disabled={busy || expired} onClick={() => void decide('approve', windowMinutes * 60_000)}>
            Approve for {windowMinutes} minutes
          </button>
        )}
        <button type="button" class="danger" disabled={busy || expired} onClick={() => void decide('deny')}>
          Deny
        </button>
      </div>
      {windowOffered ? (
        <p class="note">
          “Approve for {windowMinutes} minutes” lets this agent repeat {r.action} on {on.name} with exactly this input until then.
        </p>
      ) : (
        <p class="note" id={`nowin-${id}`}>
          No “approve for a period” here: {noWindowWhy}.
        </p>
      )}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </article>
  );
}

/** The values a click in a form would submit: bound into the approval, refused if they change. */
function FormValues({ form }: { form: BoundForm }) {
  const name = form.name ? `“${form.name}”` : 'the form';
  return (
    <>
      <h4>Form values it would send</h4>
      <p class="note">Approving binds these values: if {name} holds anything else when the click is due, nothing is clicked.</p>
      <table class="params" aria-label={`Values of form ${form.name ?? form.ref}`}>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Value</th>
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
  if (f.check) return <>{f.check === 'checked' ? '☑ checked' : 'partly checked'}</>;
  if (f.value !== undefined) return <FullValue text={f.value} label={f.label || f.name} />;
  if (f.type === 'password') return <span class="muted">(secret: Steward does not read it)</span>;
  if (f.type === 'checkbox' || f.type === 'radio') return <>☐ not checked</>;
  if (BUTTON_TYPES.has(f.type)) return <span class="muted">(button)</span>;
  return <span class="muted">(empty)</span>;
}
