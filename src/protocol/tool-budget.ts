import { TOOL_TEXT_BUDGET, type ToolDescriptor, type ToolTruncation } from './webmcp.ts';

/** Text cut to `limit` characters, the last one an ellipsis so a reader sees it was cut. */
function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** Keywords whose values are data, not schema: left as the page wrote them. */
const DATA_KEYWORDS = new Set(['default', 'const', 'enum', 'examples', 'example']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A copy of `schema` with every `description` over the parameter budget cut; `path` names where
 * (dotted from the top-level parameter), for the truncation flag.
 */
function capSchemaDescriptions(schema: unknown, path: string, cutAt: string[]): unknown {
  if (Array.isArray(schema)) return schema.map((item) => capSchemaDescriptions(item, path, cutAt));
  if (!isObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'description' && typeof value === 'string' && value.length > TOOL_TEXT_BUDGET.parameterDescription) {
      out[key] = cut(value, TOOL_TEXT_BUDGET.parameterDescription);
      cutAt.push(path || '(input)');
    } else if (key === 'properties' && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, capSchemaDescriptions(sub, path ? `${path}.${name}` : name, cutAt)]));
    } else out[key] = DATA_KEYWORDS.has(key) ? value : capSchemaDescriptions(value, path, cutAt);
  }
  return out;
}

/**
 * The tool as an agent receives it: its description and parameter descriptions within Chrome's
 * suggested budgets (500 and 150 characters), flagged `truncated` when cut. The name is never cut
 * (it is what the tool is called by); one over 30 characters carries `longName` instead.
 */
export function capForAgent(tool: ToolDescriptor): ToolDescriptor {
  const truncated: ToolTruncation = {};
  const description = cut(tool.description, TOOL_TEXT_BUDGET.description);
  if (description !== tool.description) truncated.description = true;
  const cutAt: string[] = [];
  const inputSchema = capSchemaDescriptions(tool.inputSchema, '', cutAt) as ToolDescriptor['inputSchema'];
  if (cutAt.length > 0) truncated.parameters = [...new Set(cutAt)].slice(0, 256);
  if (!truncated.description && !truncated.parameters) return tool;
  return { ...tool, description, inputSchema, truncated };
}
