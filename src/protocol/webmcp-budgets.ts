/**
 * Chrome's WebMCP budgets for what a page's tool may put before a model: a name of at most 30
 * characters, a description of 500, each parameter's description of 150, and 1,500 characters of
 * each output. Steward applies them wherever it shows tools or their results to any model (the
 * co-pilot's prompt, the MCP bridge's listings and results), so a page cannot flood a model's
 * context with words it chose. The whole text stays in Steward's records (journal, panel,
 * steward_action_status); only the model's copy is cut, and says so.
 */

export const WEBMCP_BUDGETS = { name: 30, description: 500, parameter_description: 150, output: 1500 } as const;

/** Text cut to `max` characters with an ellipsis when longer. */
export function withinBudget(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether a tool's name fits: a longer one is not shown to a model at all (a cut name would call nothing, or another tool). */
export function nameWithinBudget(name: string): boolean {
  return name.length <= WEBMCP_BUDGETS.name;
}

const MAX_DEPTH = 12;

/** An input schema with every description in it (the parameters', at any depth) cut to the parameter budget. */
export function schemaWithinBudget(schema: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || schema === null || typeof schema !== 'object') return schema;
  if (Array.isArray(schema)) return schema.map((s) => schemaWithinBudget(s, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = (key === 'description' || key === 'title') && typeof value === 'string' ? withinBudget(value, WEBMCP_BUDGETS.parameter_description) : schemaWithinBudget(value, depth + 1);
  }
  return out;
}

/** A tool's output as a model gets it: at most the output budget, marked when cut, with the whole length. */
export function outputWithinBudget<T extends { text: string | null; truncated: boolean }>(output: T): T & { shown_chars?: number; total_chars?: number } {
  if (output.text === null || output.text.length <= WEBMCP_BUDGETS.output) return output;
  return { ...output, text: output.text.slice(0, WEBMCP_BUDGETS.output), truncated: true, shown_chars: WEBMCP_BUDGETS.output, total_chars: output.text.length };
}
