import { t } from '../../base/i18n.ts';
import { TOOL_TEXT_BUDGET, type FrameTools, type ToolDescriptor } from '../../protocol/webmcp.ts';
import { schemaFields } from '../lib/schema-fields.ts';
import { LongText } from './LongText.tsx';
import { ToolRunForm } from './ToolRunForm.tsx';

function badges(tool: ToolDescriptor): Array<[string, string]> {
  const a = tool.annotations;
  const out: Array<[string, string]> = [];
  if (a.readOnlyHint) out.push(['read-only', t('risk_read_only')]);
  if (a.consequentialHint) out.push(['consequential', t('risk_consequential')]);
  if (a.destructiveHint) out.push(['destructive', t('tools_badge_destructive')]);
  if (a.untrustedContentHint) out.push(['untrusted', t('tools_badge_untrusted')]);
  out.push(['kind', tool.kind === 'declarative' ? (tool.autosubmit ? t('tools_kind_autosubmit') : t('tools_kind_waits')) : t('tools_kind_script')]);
  if (tool.annotations.debugging) out.push(['debugging', t('tools_badge_debugging')]);
  if (tool.longName) out.push(['long-name', t('tools_long_name', TOOL_TEXT_BUDGET.name)]);
  if (tool.schemaError) out.push(['error', 'INVALID_TOOL_SCHEMA']);
  return out;
}

/** One tool: what it is, what it takes, and (if read-only) a way to run it. Page text is shown as text only. */
export function ToolCard({ tabId, frame, tool, apiLabel, offeredByPage }: { tabId: number; frame: FrameTools; tool: ToolDescriptor; apiLabel: string; offeredByPage: boolean }) {
  const fields = schemaFields(tool.inputSchema);
  const headingId = `tool-${frame.frameId}-${tool.name}`;
  return (
    <article class="card" aria-labelledby={headingId} data-tool={tool.name}>
      <h4 id={headingId}>{tool.name}</h4>
      {tool.title && tool.title !== tool.name && <div class="muted">{tool.title}</div>}
      <p style="margin:4px 0">
        <LongText text={tool.description} limit={TOOL_TEXT_BUDGET.description} label={t('tools_description_of', tool.name)} />
      </p>
      <div class="badges" aria-label={t('tools_annotations')}>
        {badges(tool).map(([cls, label]) => (
          <span class={`badge ${cls}`} key={label}>
            {label}
          </span>
        ))}
      </div>
      <div class="note">
        {apiLabel} · {frame.origin}
        {frame.frameId !== 0 ? ` · ${t('tools_embedded_frame', frame.url.slice(0, 200))}` : ''}
      </div>
      {tool.schemaError && <p class="error-text">{t('tools_schema_problem', tool.schemaError)}</p>}
      {fields.length > 0 ? (
        <table class="params" aria-label={t('tools_parameters_of', tool.name)}>
          <thead>
            <tr>
              <th scope="col">{t('tools_parameter')}</th>
              <th scope="col">{t('tools_type')}</th>
              <th scope="col">{t('tools_description')}</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name}>
                <td>
                  <code>{f.name}</code>
                  {f.required ? ` ${t('tools_required')}` : ''}
                </td>
                <td>{f.options ? t('tools_one_of', f.options.join(', ')) : f.format ? `${f.type} (${f.format})` : f.type}</td>
                <td>
                  <LongText text={f.description ?? ''} limit={TOOL_TEXT_BUDGET.parameterDescription} label={t('tools_description_of', f.name)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div class="note">{t('tools_no_parameters')}</div>
      )}
      <ToolRunForm tabId={tabId} frameId={frame.frameId} tool={tool} fields={fields} offeredByPage={offeredByPage} />
    </article>
  );
}
