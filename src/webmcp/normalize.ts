import { TOOL_TEXT_BUDGET, ToolAnnotations, type ToolDescriptor } from '../protocol/webmcp.ts';
import { checkSchemaSafety } from './schema-safety.ts';

/** The fields a raw tool may carry, from native getTools() or the polyfill; everything is unknown until checked. */
export interface RawTool {
  name?: unknown;
  title?: unknown;
  description?: unknown;
  inputSchema?: unknown;
  annotations?: unknown;
}

/** Where a declarative tool's form lives, as the isolated world sees it in the DOM. */
export interface DeclarativeInfo {
  autosubmit: boolean;
}

const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;
const MAX_SCHEMA_CHARS = 64_000;
const MAX_DESCRIPTION_CHARS = 16_384;

type SchemaResult = { schema: Record<string, unknown>; error?: string };

/** Chrome versions and the polyfill give the schema as an object, a JSON string, or nothing. */
function normalizeInputSchema(raw: unknown): SchemaResult {
  if (raw === undefined || raw === null || raw === '') return { schema: { ...EMPTY_OBJECT_SCHEMA } };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.length > MAX_SCHEMA_CHARS) return invalid(`input schema is ${raw.length} characters (limit ${MAX_SCHEMA_CHARS})`);
    try {
      value = JSON.parse(raw);
    } catch {
      return invalid('input schema is not valid JSON');
    }
  } else {
    let size: number;
    try {
      size = JSON.stringify(raw)?.length ?? 0;
    } catch {
      return invalid('input schema cannot be serialised (cyclic or exotic values)');
    }
    if (size > MAX_SCHEMA_CHARS) return invalid(`input schema is ${size} characters (limit ${MAX_SCHEMA_CHARS})`);
    value = JSON.parse(JSON.stringify(raw));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return invalid('input schema must be a JSON object');
  const schema = value as Record<string, unknown>;
  if (schema.type !== undefined && schema.type !== 'object') return invalid(`input schema type must be "object", got ${JSON.stringify(schema.type)}`);
  if (schema.properties !== undefined && (typeof schema.properties !== 'object' || schema.properties === null || Array.isArray(schema.properties))) {
    return invalid('input schema "properties" must be an object');
  }
  if (schema.required !== undefined && (!Array.isArray(schema.required) || schema.required.some((r) => typeof r !== 'string'))) {
    return invalid('input schema "required" must be an array of strings');
  }
  // A schema that could freeze whoever evaluates it is listed as INVALID_TOOL_SCHEMA, never run.
  const safety = checkSchemaSafety(schema);
  if (!safety.ok) return invalid(safety.reason);
  return { schema };
}

function invalid(error: string): SchemaResult {
  return { schema: { ...EMPTY_OBJECT_SCHEMA }, error };
}

function normalizeAnnotations(raw: unknown): ToolDescriptor['annotations'] {
  if (typeof raw !== 'object' || raw === null) return {};
  const picked: Record<string, boolean> = {};
  for (const key of ['readOnlyHint', 'consequentialHint', 'untrustedContentHint', 'destructiveHint', 'idempotentHint', 'debugging']) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === 'boolean') picked[key] = v;
  }
  return ToolAnnotations.parse(picked);
}

function text(raw: unknown, limit: number): string | undefined {
  if (typeof raw !== 'string') return undefined;
  return raw.length > limit ? raw.slice(0, limit) : raw;
}

/**
 * The service worker's own judgement of a reported tool: the content script normalised it, but
 * the worker evaluates schemas, so it checks again before anything can run (defence in depth).
 */
export function judgeReportedTool(tool: ToolDescriptor): ToolDescriptor {
  if (tool.schemaError) return tool;
  const safety = checkSchemaSafety(tool.inputSchema);
  return safety.ok ? tool : { ...tool, inputSchema: { ...EMPTY_OBJECT_SCHEMA }, schemaError: safety.reason };
}

type NormalizeResult = { ok: true; tool: ToolDescriptor } | { ok: false; reason: string };

/**
 * Turns one raw tool into Steward's descriptor. A tool without a usable name is dropped (it
 * could not be called anyway); a tool with a malformed schema is kept, marked, and not runnable.
 */
function normalizeTool(raw: RawTool, declarative?: DeclarativeInfo): NormalizeResult {
  const name = typeof raw.name === 'string' ? raw.name.trim() : '';
  if (!name || name.length > 256) return { ok: false, reason: 'tool has no usable name' };
  const { schema, error } = normalizeInputSchema(raw.inputSchema);
  const title = text(raw.title, 1024);
  const tool: ToolDescriptor = {
    name,
    ...(title ? { title } : {}),
    description: text(raw.description, MAX_DESCRIPTION_CHARS) ?? '',
    inputSchema: schema,
    annotations: normalizeAnnotations(raw.annotations),
    kind: declarative ? 'declarative' : 'imperative',
    ...(declarative ? { autosubmit: declarative.autosubmit } : {}),
    ...(error ? { schemaError: error } : {}),
    ...(name.length > TOOL_TEXT_BUDGET.name ? { longName: true as const } : {}),
  };
  return { ok: true, tool };
}

/** Normalises a whole listing; duplicate names keep the first (a page cannot shadow a tool). */
export function normalizeTools(raws: readonly RawTool[], declarativeLookup: (name: string) => DeclarativeInfo | undefined, limit = 512): ToolDescriptor[] {
  const seen = new Set<string>();
  const out: ToolDescriptor[] = [];
  for (const raw of raws) {
    if (out.length >= limit) break;
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    const result = normalizeTool(raw, name ? declarativeLookup(name) : undefined);
    if (!result.ok || seen.has(result.tool.name)) continue;
    seen.add(result.tool.name);
    out.push(result.tool);
  }
  return out;
}

const MAX_RESULT_CHARS = 100_000;

/** executeTool returns a string or null natively; the polyfill may hand back an MCP CallToolResult. */
export function normalizeToolResult(raw: unknown): { result: string | null; truncated: boolean } {
  let textValue: string | null;
  if (raw === null || raw === undefined) textValue = null;
  else if (typeof raw === 'string') textValue = callToolResultText(parseJsonObject(raw)) ?? raw;
  else textValue = callToolResultText(raw) ?? safeJson(raw);
  if (textValue !== null && textValue.length > MAX_RESULT_CHARS) {
    return { result: textValue.slice(0, MAX_RESULT_CHARS), truncated: true };
  }
  return { result: textValue, truncated: false };
}

/**
 * Whether the page's tool said it failed: an MCP CallToolResult with `isError: true`, as an object
 * (polyfill) or serialised to a JSON string (native). Its text is then an error, never a result.
 */
export function reportsToolError(raw: unknown): boolean {
  const value = typeof raw === 'string' ? parseJsonObject(raw) : raw;
  return typeof value === 'object' && value !== null && (value as { isError?: unknown }).isError === true;
}

function parseJsonObject(text: string): unknown {
  if (!text.startsWith('{')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Chrome serialises an MCP CallToolResult ({content: [{type: 'text', text}]}) into a JSON
 * string; the polyfill hands back the object. Either way the text parts are the result.
 */
function callToolResultText(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  return content
    .map((part) => {
      if (typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'text') {
        const t = (part as { text?: unknown }).text;
        return typeof t === 'string' ? t : '';
      }
      return safeJson(part);
    })
    .join('\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
