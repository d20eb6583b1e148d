import { useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ToolDescriptor, ToolRunOutcome } from '../../protocol/webmcp.ts';
import { inputFromForm, type SchemaField } from '../lib/schema-fields.ts';
import { runTool } from '../background-client.ts';
import { ToolRunError } from './ToolRunError.tsx';

type Shown = { kind: 'idle' } | { kind: 'running' } | { kind: 'done'; outcome: ToolRunOutcome } | { kind: 'error'; message: string };

function FieldInput({ tool, field, value, onInput }: { tool: string; field: SchemaField; value: string; onInput: (v: string) => void }) {
  const id = `in-${tool}-${field.name}`;
  const label = field.required ? `${field.name} ${t('tools_required')}` : field.name;
  const control = field.options ? (
    <select id={id} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
      <option value="">—</option>
      {field.options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
    </select>
  ) : field.type === 'boolean' ? (
    <select id={id} value={value} onChange={(e) => onInput(e.currentTarget.value)}>
      <option value="">—</option>
      <option value="true">{t('tools_true')}</option>
      <option value="false">{t('tools_false')}</option>
    </select>
  ) : (
    <input id={id} type={field.type === 'number' || field.type === 'integer' ? 'number' : field.format === 'date' ? 'date' : 'text'} value={value} onInput={(e) => onInput(e.currentTarget.value)} />
  );
  return (
    <label for={id}>
      {label}
      {control}
    </label>
  );
}

/** Runs a read-only tool as the person, through the pipeline (audited); other tools run only as approved actions. */
export function ToolRunForm({ tabId, frameId, tool, fields, offeredByPage }: { tabId: number; frameId: number; tool: ToolDescriptor; fields: SchemaField[]; offeredByPage: boolean }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<Shown>({ kind: 'idle' });
  // Runs go through the pipeline, which runs the page's own tools only (src/protocol/page-tools.ts).
  const runnable = tool.annotations.readOnlyHint === true && !tool.schemaError && offeredByPage;

  /** Shows its own failure in the form: the submit handler need not wait for it. */
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!runnable) return;
    const built = inputFromForm(fields, values);
    if ('error' in built) return setShown({ kind: 'error', message: built.error });
    setShown({ kind: 'running' });
    try {
      setShown({ kind: 'done', outcome: await runTool(tabId, frameId, tool.name, built.input) });
    } catch (error) {
      setShown({ kind: 'error', message: (error as Error).message });
    }
  };

  return (
    <form class="run" onSubmit={(e) => void submit(e)} aria-label={t('tools_run_label', tool.name)}>
      {runnable && fields.map((f) => <FieldInput key={f.name} tool={tool.name} field={f} value={values[f.name] ?? ''} onInput={(v) => setValues({ ...values, [f.name]: v })} />)}
      <button type="submit" disabled={!runnable || shown.kind === 'running'} aria-describedby={runnable ? undefined : `why-${tool.name}`}>
        {shown.kind === 'running' ? t('tools_running') : t('tools_run')}
      </button>
      {!runnable && (
        <p class="note" id={`why-${tool.name}`}>
          {tool.schemaError ? t('tools_cannot_schema') : !offeredByPage ? t('tools_cannot_frame') : t('tools_not_read_only')}
        </p>
      )}
      <div aria-live="polite">
        {shown.kind === 'error' && (
          <p class="error-text" role="alert">
            {shown.message}
          </p>
        )}
        {shown.kind === 'done' && <Outcome outcome={shown.outcome} name={tool.name} />}
      </div>
    </form>
  );
}

function Outcome({ outcome, name }: { outcome: ToolRunOutcome; name: string }) {
  if (!outcome.ok) return <ToolRunError error={outcome.error} name={name} />;
  return (
    <div>
      <div class="result-label">
        {t('tools_result')}
        {outcome.truncated ? ` ${t('tools_truncated')}` : ''}
        {outcome.untrusted && <span class="badge untrusted"> {t('tools_untrusted_badge')}</span>}
      </div>
      <pre class="result" role="region" aria-label={t('tools_result_of', name)}>
        {outcome.result ?? t('tools_no_result')}
      </pre>
      {outcome.action_id && <p class="note">{t('tools_recorded', outcome.action_id)}</p>}
    </div>
  );
}
