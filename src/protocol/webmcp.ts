import { z } from 'zod';

/** Hints a WebMCP tool may declare about itself (WebMCP draft + Chromium's extras). */
export const ToolAnnotations = z
  .object({
    readOnlyHint: z.boolean().optional(),
    consequentialHint: z.boolean().optional(),
    untrustedContentHint: z.boolean().optional(),
    destructiveHint: z.boolean().optional(),
    idempotentHint: z.boolean().optional(),
    /** Chromium's own annotation (getTools() reports `debugging` on every tool): a tool for the site's developers, hidden from agents unless the person shows it. */
    debugging: z.boolean().optional(),
  })
  .strip();
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/**
 * What reaches an agent of a page's own words, per Chrome's WebMCP security guide: longer text is
 * cut for agents (and flagged), while the person sees it whole in the side panel.
 */
export const TOOL_TEXT_BUDGET = { name: 30, description: 500, parameterDescription: 150 } as const;

/** What was cut from a tool's text for agents (src/protocol/tool-budget.ts). */
export const ToolTruncation = z.object({
  description: z.boolean().optional(),
  /** Parameters (top-level property names) whose description was cut. */
  parameters: z.array(z.string().max(256)).max(256).optional(),
});
export type ToolTruncation = z.infer<typeof ToolTruncation>;

/** A JSON Schema object as the page declared it; only its outer shape is checked here. */
export const JsonSchemaObject = z.record(z.string(), z.unknown());
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

/**
 * A page's WebMCP tool after normalisation: what differs across Chrome versions and the
 * polyfill (schema as string or object, missing fields) is settled here.
 */
export const ToolDescriptor = z.object({
  name: z.string().min(1).max(256),
  title: z.string().max(1024).optional(),
  description: z.string().max(16_384),
  inputSchema: JsonSchemaObject,
  annotations: ToolAnnotations,
  kind: z.enum(['imperative', 'declarative']),
  /** Declarative only: the form submits itself when an agent fills it. */
  autosubmit: z.boolean().optional(),
  /** Set when the page's schema could not be understood; the tool is listed but cannot run. */
  schemaError: z.string().optional(),
  /** The name is over the 30-character budget: kept whole (it is how the tool is called), but flagged. */
  longName: z.literal(true).optional(),
  /** Set on the agent's copy when text was cut to the budget; the registry keeps the full text. */
  truncated: ToolTruncation.optional(),
});
export type ToolDescriptor = z.infer<typeof ToolDescriptor>;

export const WebMcpApi = z.enum(['native', 'polyfill', 'none']);
export type WebMcpApi = z.infer<typeof WebMcpApi>;

/** What one frame of a tab exposes. */
export const FrameTools = z.object({
  tabId: z.number().int(),
  frameId: z.number().int(),
  /** Chrome's id for the document that reported; a new one in frame 0 means the tab navigated. */
  documentId: z.string().optional(),
  origin: z.string(),
  url: z.string(),
  api: WebMcpApi,
  tools: z.array(ToolDescriptor).max(512),
  /** Tools the page reported beyond what Steward keeps for one frame (src/background/tools/registry.ts). */
  dropped: z.int().nonnegative().optional(),
  updatedAt: z.string(),
});
export type FrameTools = z.infer<typeof FrameTools>;

/** The outcome of running a tool, as Steward reports it to its own contexts. */
export const ToolRunOutcome = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** The tool's result text (native executeTool returns a string or null). */
    result: z.string().nullable(),
    truncated: z.boolean().default(false),
    /** A page's tool output is data, never instructions: untrusted unless Steward's own code says otherwise. */
    untrusted: z.boolean().default(true),
    /** Set when the run went through the pipeline: its journal and audit entries. */
    action_id: z.string().max(128).optional(),
    audit_receipt: z.string().max(128).optional(),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({
      code: z.string(),
      message: z.string(),
      retryable: z.boolean(),
      recovery_hint: z.string().optional(),
      details: z.unknown().optional(),
    }),
  }),
]);
export type ToolRunOutcome = z.infer<typeof ToolRunOutcome>;
