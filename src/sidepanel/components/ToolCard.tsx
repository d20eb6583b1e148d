import { TOOL_TEXT_BUDGET, type FrameTools, type ToolDescriptor } from '../../protocol/webmcp.ts';
import { schemaFields } from '../lib/schema-fields.ts';
import { LongText } from './LongText.tsx';
import { ToolRunForm } from './ToolRunForm.tsx';

function badges(tool: ToolDescriptor): Array<[string, string]> {
  const a = tool.annotations;
  const out: Array<[string, string]> = [];
  if (a.readOnlyHint) out.push(['read-only', 'read-only']);
  if (a.consequentialHint) out.push(['consequential', 'consequential']);
  if (a.destructiveHint) out.push(['destructive', 'destructive']);
  if (a.untrustedContentHint) out.push(['untrusted', 'untrusted content']);
  out.push(['kind', tool.kind === 'declarative' ? (tool.autosubmit ? 'form · autosubmit' : 'form · waits for user') : 'script']);
  if (tool.annotations.debugging) out.push(['debugging', 'debugging']);
  if (tool.longName) out.push(['long-name', `name over ${TOOL_TEXT_BUDGET.name} characters`]);
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
        <LongText text={tool.description} limit={TOOL_TEXT_BUDGET.description} label={`the description of ${tool.name}`} />
      </p>
      <div class="badges" aria-label="Annotations">
        {badges(tool).map(([cls, label]) => (
          <span class={`badge ${cls}`} key={label}>
            {label}
          </span>
        ))}
      </div>
      <div class="note">
        {apiLabel} · {frame.origin}
        {frame.frameId !== 0 ? ` · registered in an embedded frame (${frame.url.slice(0, 200)})` : ''}
      </div>
      {tool.schemaError && <p class="error-text">Schema problem: {tool.schemaError}</p>}
      {fields.length > 0 ? (
        <table class="params" aria-label={`Parameters of ${tool.name}`}>
          <thead>
            <tr>
              <th scope="col">Parameter</th>
              <th scope="col">Type</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {fields.map((f) => (
              <tr key={f.name}>
                <td>
                  <code>{f.name}</code>
                  {f.required ? ' (required)' : ''}
                </td>
                <td>{f.options ? `one of ${f.options.join(', ')}` : f.format ? `${f.type} (${f.format})` : f.type}</td>
                <td>
                  <LongText text={f.description ?? ''} limit={TOOL_TEXT_BUDGET.parameterDescription} label={`the description of ${f.name}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div class="note">No parameters.</div>
      )}
      <ToolRunForm tabId={tabId} frameId={frame.frameId} tool={tool} fields={fields} offeredByPage={offeredByPage} />
    </article>
  );
}
