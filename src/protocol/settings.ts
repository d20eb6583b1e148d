import { z } from 'zod';
import { ModelProvider } from './copilot.ts';

/**
 * The person's preferences, kept in chrome.storage.local under `SETTINGS_KEY`. `Settings` is
 * strict (the form shows its messages); `readSettings` falls back field by field, so one bad
 * stored value never throws away the rest. Nothing secret lives here; only Steward's own pages and
 * its service worker can read or write chrome.storage.local (src/background/core/storage-access.ts).
 */
export const SETTINGS_KEY = 'steward.settings';

/** The pipeline caps "approve for N minutes" window receipts at 60 minutes. */
export const MAX_WINDOW_MINUTES = 60;
const MAX_TOKEN_MINUTES = 30 * 24 * 60;

/** The co-pilot's model and rails. The API key is not here: it lives apart, write-only (`copilot/set-key`). */
const Copilot = z.object({
  provider: ModelProvider,
  /** Base URL of an OpenAI-compatible server (`…/v1`), or of the Anthropic API; unused by the Prompt API. */
  endpoint: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, or empty' })]),
  model: z.string().max(200, 'must be at most 200 characters'),
  max_steps: z.int().min(1, 'must be at least 1').max(100, 'must be at most 100'),
  time_budget_minutes: z.int().min(1, 'must be at least 1 minute').max(120, 'must be at most 120 minutes'),
  token_budget: z.int().min(1000, 'must be at least 1,000 tokens').max(5_000_000, 'must be at most 5,000,000 tokens'),
});

export const Settings = z.object({
  /** Inject Steward's WebMCP polyfill where the browser has no native document.modelContext. */
  polyfill_enabled: z.boolean(),
  /** Offer agents the tools a page marks as debugging-only (Chromium's `debugging` annotation); the side panel lists them either way. */
  show_debugging_tools: z.boolean(),
  /** What the mint form proposes. */
  token_lifetime_minutes: z.int().min(1, 'must be at least 1 minute').max(MAX_TOKEN_MINUTES, 'must be at most 30 days'),
  /** "Approve for N minutes" on approval cards. */
  approval_window_minutes: z.int().min(1, 'must be at least 1 minute').max(MAX_WINDOW_MINUTES, 'must be at most 60 minutes'),
  copilot: Copilot,
});
export type Settings = z.infer<typeof Settings>;

/** Where the Anthropic provider sends prompts when no endpoint is set. */
const ANTHROPIC_DEFAULT = 'https://api.anthropic.com';

/**
 * The origin of the server the co-pilot's model runs on, which Chrome must give Steward access to
 * (Steward holds no host access it was not given: the side panel asks Chrome when the person saves
 * the endpoint). Undefined for the Prompt API (in the browser) and an unset endpoint.
 */
export function modelServerOrigin(copilot: Pick<Settings['copilot'], 'provider' | 'endpoint'>): string | undefined {
  if (copilot.provider === 'prompt-api') return undefined;
  const endpoint = copilot.endpoint || (copilot.provider === 'anthropic' ? ANTHROPIC_DEFAULT : '');
  try {
    const url = new URL(endpoint);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export const DEFAULT_SETTINGS: Settings = {
  polyfill_enabled: true,
  show_debugging_tools: false,
  token_lifetime_minutes: 60,
  approval_window_minutes: 15,
  copilot: { provider: 'openai', endpoint: '', model: '', max_steps: 25, time_budget_minutes: 10, token_budget: 200_000 },
};

function field<T>(schema: z.ZodType<T>, value: unknown, fallback: T): T {
  const r = schema.safeParse(value);
  return r.success ? r.data : fallback;
}

/** Whatever is stored (nothing, an older shape, garbage) → complete, valid settings. */
export function readSettings(raw: unknown): Settings {
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const c = (typeof o.copilot === 'object' && o.copilot !== null ? o.copilot : {}) as Record<string, unknown>;
  const d = DEFAULT_SETTINGS;
  return {
    polyfill_enabled: field(Settings.shape.polyfill_enabled, o.polyfill_enabled, d.polyfill_enabled),
    show_debugging_tools: field(Settings.shape.show_debugging_tools, o.show_debugging_tools, d.show_debugging_tools),
    token_lifetime_minutes: field(Settings.shape.token_lifetime_minutes, o.token_lifetime_minutes, d.token_lifetime_minutes),
    approval_window_minutes: field(Settings.shape.approval_window_minutes, o.approval_window_minutes, d.approval_window_minutes),
    copilot: {
      provider: field(Copilot.shape.provider, c.provider, d.copilot.provider),
      endpoint: field(Copilot.shape.endpoint, c.endpoint, d.copilot.endpoint),
      model: field(Copilot.shape.model, c.model, d.copilot.model),
      max_steps: field(Copilot.shape.max_steps, c.max_steps, d.copilot.max_steps),
      time_budget_minutes: field(Copilot.shape.time_budget_minutes, c.time_budget_minutes, d.copilot.time_budget_minutes),
      token_budget: field(Copilot.shape.token_budget, c.token_budget, d.copilot.token_budget),
    },
  };
}
