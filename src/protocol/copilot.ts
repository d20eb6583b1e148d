import { z } from 'zod';
import { ActionName, IdempotencyKey } from './action-name.ts';
import { ApprovalRequestId } from './approval.ts';
import { AgentId, JsonObject, Origin } from './primitives.ts';
import { ResourceRef, ResourceScope } from './resource.ts';
import { ScopeEntry, TokenId } from './token.ts';
import { Phrase } from './phrase.ts';

/**
 * The co-pilot as the side panel sees it (issue 13): the runs the service worker drives, each
 * step as it happens, and the model the person configured. The run itself lives in the worker
 * (closing the panel does not stop it); the panel only starts, steers and watches.
 */

/** Which wire format the co-pilot speaks to its language model. */
export const ModelProvider = z.enum(['openai', 'anthropic', 'prompt-api']);

/** The model id of the scripted demo model `npm start` runs (sites/model/demo-model.ts): never a language model. */
export const DEMO_MODEL_ID = 'steward-demo';
export type ModelProvider = z.infer<typeof ModelProvider>;

/** Why the model could not answer, as a code the panel turns into a plain sentence with what to do. */
export const ModelErrorCode = z.enum(['not_configured', 'bad_key', 'rate_limited', 'server_error', 'timeout', 'network', 'context_too_long', 'bad_response', 'unavailable']);
export type ModelErrorCode = z.infer<typeof ModelErrorCode>;

export const ModelError = z.object({
  code: ModelErrorCode,
  /** One plain sentence, and what the person can do about it. Never contains the key. */
  message: z.string().max(1000),
  /** `message` as a phrase for the panel (src/protocol/phrase.ts). */
  message_said: Phrase.optional(),
  /** For rate limits: when trying again makes sense. */
  retry_after_ms: z.number().int().nonnegative().optional(),
});
export type ModelError = z.infer<typeof ModelError>;

const StepStatus = z.enum([
  /** Asking the model. */
  'thinking',
  /** Submitted to the pipeline. */
  'running',
  /** The gateway waits for the person: the approval card is shown inline. */
  'awaiting_approval',
  /** The pipeline confirmed (or accepted) the action. */
  'succeeded',
  /** The pipeline refused or the action failed; `error` says why. */
  'failed',
  /** The model's reply was invalid even after the retry. */
  'invalid',
  /** The person denied the step's approval (the Deny button, or Escape on the card): their decision, not a failure. */
  'denied',
  /** The person stopped the run (or took over) before the step ended. */
  'stopped',
  /** The model asked the person (`question`); the run waits for their answer. */
  'awaiting_answer',
  /** The person answered the model's question (`answer`); the run went on with it. */
  'answered',
  /** The model answered "done" or asked the person: see the run's `end`. */
  'final',
]);
export type CopilotStepStatus = z.infer<typeof StepStatus>;

export const CopilotStep = z.object({
  n: z.number().int().positive(),
  status: StepStatus,
  /** The model's short reasoning (untrusted: the model may have read page text). */
  thought: z.string().max(2000).optional(),
  action: z
    .object({
      name: ActionName,
      /** Which path runs it: `site_contract`, `webmcp`, `adapter`, `dom` (from the observed action). */
      via: z.string().max(64).optional(),
      resource: ResourceRef.optional(),
      input: JsonObject,
      idempotency_key: IdempotencyKey,
    })
    .optional(),
  /** What the model expected to see after (never trusted as evidence). */
  expect: z.string().max(2000).optional(),
  /** The approval the gateway is waiting for, while `awaiting_approval`. */
  approval_id: ApprovalRequestId.optional(),
  /** The pipeline's result in a sentence (status, certainty, resource state). */
  outcome: z.string().max(2000).optional(),
  error: z.string().max(2000).optional(),
  /** The objective evidence the step produced (confirmed/accepted action, observed state). */
  evidence: z.string().max(2000).optional(),
  /** `outcome`, `error` and `evidence` as phrases the panel says in the person's language (src/protocol/phrase.ts). */
  outcome_said: Phrase.optional(),
  error_said: Phrase.optional(),
  evidence_said: Phrase.optional(),
  /** The model's question to the person (untrusted: the model may have read page text). */
  question: z.string().max(2000).optional(),
  /** The person's answer to `question`. */
  answer: z.string().max(2000).optional(),
  /** The model's reply so far while it streams (its thought), replaced by the step once the reply is whole. */
  partial: z.string().max(2000).optional(),
  /** `order ORD-1024 · paid @ fp-…`: the state the step was decided on. */
  state: z.string().max(500).optional(),
});
export type CopilotStep = z.infer<typeof CopilotStep>;

export const CopilotRunStatus = z.enum(['running', 'paused', 'awaiting_approval', 'awaiting_answer', 'finished', 'stopped']);
export type CopilotRunStatus = z.infer<typeof CopilotRunStatus>;

export const CopilotEnd = z.discriminatedUnion('kind', [
  /** `verified` only with the pipeline's evidence; otherwise `why` says it is not verified. */
  z.object({
    kind: z.literal('done'),
    verified: z.boolean(),
    claim: z.string().max(2000),
    evidence: z.string().max(2000).optional(),
    why: z.string().max(2000).optional(),
    why_said: Phrase.optional(),
  }),
  /** A rail (max_steps, stuck, failures, time_budget, token_budget), a question no one could answer, a model error, the person's own decision (denied, stopped, took over). */
  z.object({
    kind: z.literal('stopped'),
    reason: z.enum(['max_steps', 'stuck', 'failures', 'time_budget', 'token_budget', 'ask_person', 'model_error', 'denied_by_person', 'stopped_by_person', 'taken_over', 'tab_closed', 'error']),
    detail: z.string().max(2000),
    /** `detail` as a phrase for the panel (none for the model's own words: a question, a claim); one that does not fit is dropped, and `detail` shown. */
    detail_said: Phrase.optional().catch(undefined),
    errors: z.array(z.string().max(2000)).max(10).optional(),
    /** `errors` as phrases for the panel, one per error in the same order. */
    errors_said: z.array(Phrase).max(10).optional(),
  }),
]);
export type CopilotEnd = z.infer<typeof CopilotEnd>;

export const CopilotRun = z.object({
  run_id: z.string().regex(/^run-[A-Za-z0-9_-]{1,64}$/),
  goal: z.string().min(1).max(2000),
  tabId: z.number().int(),
  origin: Origin,
  /** The run's own agent identity in the pipeline and the audit log. */
  agent_id: AgentId,
  /** The token the person granted for this run (its public id; the secret never leaves the worker). */
  token_id: TokenId,
  /** The model that drives it, as the panel should name it (e.g. "gpt-4o-mini at api.openai.com", "Demo model (scripted)"). */
  model_label: z.string().max(200),
  /** `model_label` as a phrase for the panel. */
  model_label_said: Phrase.optional(),
  status: CopilotRunStatus,
  started_at: z.number().int().nonnegative(),
  steps: z.array(CopilotStep).max(200),
  budgets: z.object({
    max_steps: z.number().int().positive(),
    tokens_used: z.number().int().nonnegative(),
    token_budget: z.number().int().positive(),
    elapsed_ms: z.number().int().nonnegative(),
    time_budget_ms: z.number().int().positive(),
  }),
  end: CopilotEnd.optional(),
  /** The last model error, in a plain sentence (the run stops with reason `model_error`). */
  model_error: ModelError.optional(),
});
export type CopilotRun = z.infer<typeof CopilotRun>;

const RunId = CopilotRun.shape.run_id;
const RunReply = z.object({ run: CopilotRun });

/** What the person grants the run when starting it (defaults: every action on the tab's site, no payment). */
export const CopilotGrant = z.object({
  scope: z.array(ScopeEntry).min(1).max(64).default(['*:*']),
  resource_scope: ResourceScope.default('*'),
  payment: z.boolean().default(false),
  ttl_ms: z
    .number()
    .int()
    .positive()
    .max(24 * 60 * 60 * 1000)
    .default(60 * 60 * 1000),
});

export const ModelStatus = z.object({
  provider: ModelProvider,
  model_label: z.string().max(200),
  /** Whether a key is stored (the key itself is write-only: it never comes back to the panel). */
  has_key: z.boolean(),
  ready: z.boolean(),
  /** Steward called the endpoint and it answered (`copilot/check-model`); without it, `ready` says only that the settings are complete. */
  checked: z.boolean().optional(),
  /** Why it is not ready, as a plain sentence. */
  detail: z.string().max(1000).optional(),
  /** `detail` and `model_label` as phrases for the panel (src/protocol/phrase.ts). */
  detail_said: Phrase.optional(),
  model_label_said: Phrase.optional(),
});
export type ModelStatus = z.infer<typeof ModelStatus>;

/** The co-pilot's requests on the panel channel (spread into PanelRequests). */
export const CopilotRequests = {
  /** Starts a run on the tab; refused while another run is active there, or without a ready model. */
  'copilot/start': {
    request: z.object({
      tabId: z.number().int(),
      goal: z.string().trim().min(1).max(2000),
      grant: CopilotGrant.default({ scope: ['*:*'], resource_scope: '*', payment: false, ttl_ms: 60 * 60 * 1000 }),
    }),
    reply: RunReply,
  },
  'copilot/pause': { request: z.object({ run_id: RunId }), reply: RunReply },
  'copilot/resume': { request: z.object({ run_id: RunId }), reply: RunReply },
  'copilot/stop': { request: z.object({ run_id: RunId }), reply: RunReply },
  /** The person's answer to the question the run waits on; refused when it waits on none. */
  'copilot/answer': { request: z.object({ run_id: RunId, answer: z.string().trim().min(1).max(2000) }), reply: RunReply },
  /** Stops the run and leaves the tab exactly as it is, for the person to continue by hand. */
  'copilot/take-over': { request: z.object({ run_id: RunId }), reply: RunReply },
  /** The most recent runs, newest first (active ones included). */
  'copilot/runs': { request: z.object({ tabId: z.number().int().optional() }), reply: z.object({ runs: z.array(CopilotRun).max(50) }) },
  /** Stores the model's API key in the worker's trusted storage ('' forgets it); it is never read back. */
  'copilot/set-key': { request: z.object({ provider: ModelProvider, key: z.string().max(500) }), reply: z.object({ has_key: z.boolean() }) },
  'copilot/model-status': { request: z.object({}), reply: ModelStatus },
  /** Calls the model's endpoint (its list of models) to check it answers and knows the model: "ready" only after this. */
  'copilot/check-model': { request: z.object({}), reply: ModelStatus },
} as const;

/** Pushed to open panels whenever a run changes (a step starts or ends, a budget moves, it ends). */
export const CopilotPush = z.object({ type: z.literal('copilot/run-changed'), run: CopilotRun });
