import { z } from 'zod';

/**
 * The person's preferences, kept in chrome.storage.local under `SETTINGS_KEY`. `Settings` is
 * strict (the form shows its messages); `readSettings` falls back field by field, so one bad
 * stored value never throws away the rest. Nothing secret lives here; only Steward's own pages and
 * its service worker can read or write chrome.storage.local (src/background/storage-access.ts).
 */
export const SETTINGS_KEY = 'steward.settings';

/** The pipeline caps "approve for N minutes" window receipts at 60 minutes. */
export const MAX_WINDOW_MINUTES = 60;
const MAX_TOKEN_MINUTES = 30 * 24 * 60;

const Copilot = z.object({
  endpoint: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, or empty' })]),
  model: z.string().max(200, 'must be at most 200 characters'),
});

export const Settings = z.object({
  /** Inject Steward's WebMCP polyfill where the browser has no native document.modelContext. */
  polyfill_enabled: z.boolean(),
  /** What the mint form proposes. */
  token_lifetime_minutes: z.int().min(1, 'must be at least 1 minute').max(MAX_TOKEN_MINUTES, 'must be at most 30 days'),
  /** "Approve for N minutes" on approval cards. */
  approval_window_minutes: z.int().min(1, 'must be at least 1 minute').max(MAX_WINDOW_MINUTES, 'must be at most 60 minutes'),
  /** Used by the co-pilot (filled in by the co-pilot's issue). */
  copilot: Copilot,
});
export type Settings = z.infer<typeof Settings>;

export const DEFAULT_SETTINGS: Settings = {
  polyfill_enabled: true,
  token_lifetime_minutes: 60,
  approval_window_minutes: 15,
  copilot: { endpoint: '', model: '' },
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
    token_lifetime_minutes: field(Settings.shape.token_lifetime_minutes, o.token_lifetime_minutes, d.token_lifetime_minutes),
    approval_window_minutes: field(Settings.shape.approval_window_minutes, o.approval_window_minutes, d.approval_window_minutes),
    copilot: {
      endpoint: field(Copilot.shape.endpoint, c.endpoint, d.copilot.endpoint),
      model: field(Copilot.shape.model, c.model, d.copilot.model),
    },
  };
}

/** Field path (`copilot.endpoint`) → message, for the settings form. */
export function settingsErrors(candidate: unknown): Record<string, string> {
  const r = Settings.safeParse(candidate);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const issue of r.error.issues) out[issue.path.join('.')] ??= issue.message;
  return out;
}
