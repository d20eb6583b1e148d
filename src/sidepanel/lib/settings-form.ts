import { t, uiLocale } from '../../base/i18n.ts';
import type { AuditExportTarget } from '../../protocol/audit-export.ts';
import { Settings } from '../../protocol/settings.ts';
import { targetFromForm, type ExportForm } from './audit-export-words.ts';
import { retentionFromText } from './audit-keeping.ts';

/**
 * Settings has one Save (issue 30.7): the co-pilot's model and rails, page tools, tokens,
 * approvals, the activity log's retention and the audit export's target are checked together,
 * every problem is shown next to its field, and nothing is saved while any field is wrong. Pure.
 */

/** The co-pilot's numeric rails, edited as text so a half-typed number can be shown and refused. */
export type CopilotNumbers = Record<'max_steps' | 'time_budget_minutes' | 'token_budget', string>;

export const copilotNumbers = (c: Settings['copilot']): CopilotNumbers => ({
  max_steps: String(c.max_steps),
  time_budget_minutes: String(c.time_budget_minutes),
  token_budget: String(c.token_budget),
});

/** The form as typed: numbers stay text until Save reads them. */
export interface SettingsForm {
  settings: Settings;
  windowText: string;
  numbers: CopilotNumbers;
  retentionText: string;
  exportForm: ExportForm;
  /** The model's API key as typed (write-only: empty leaves the stored one as it is). */
  keyText: string;
}

/** What is stored now, so that Save writes only what changed; undefined: not known yet (that part is left alone). */
export interface StoredNow {
  retentionDays: number | null | undefined;
  exportTarget: AuditExportTarget | null | undefined;
  /** The organisation's policy sets the export target: the person's form does not. */
  exportManaged: boolean;
}

/** Where each field's problem is shown (the field's path). */
export const RETENTION_FIELD = 'audit_retention';
export const EXPORT_HOST_FIELD = 'audit_export.host';
export const EXPORT_PORT_FIELD = 'audit_export.port';

export type CheckedSettingsForm =
  | {
      ok: true;
      settings: Settings;
      /** Present only when the person typed one (the Prompt API needs none). */
      key?: { provider: Settings['copilot']['provider']; key: string };
      /** Present only when the person changed it. */
      retention?: { days: number | null };
      exportTarget?: { target: AuditExportTarget | null };
    }
  | { ok: false; errors: Record<string, string> };

const grouped = (n: number) => new Intl.NumberFormat(uiLocale()).format(n);

const copilotShape = Settings.shape.copilot.shape;

/** Each field's one sentence, whatever exactly was wrong: what it accepts, in the person's language. */
const FIELD_PROBLEM: Record<string, () => string> = {
  'copilot.endpoint': () => t('settings_error_url'),
  'copilot.model': () => t('settings_error_too_long', copilotShape.model.maxLength ?? 0),
  'copilot.max_steps': () => t('settings_error_whole_range', copilotShape.max_steps.minValue ?? 0, copilotShape.max_steps.maxValue ?? 0),
  'copilot.time_budget_minutes': () => t('settings_error_minutes_range', copilotShape.time_budget_minutes.minValue ?? 0, copilotShape.time_budget_minutes.maxValue ?? 0),
  'copilot.token_budget': () => t('settings_error_tokens_range', grouped(copilotShape.token_budget.minValue ?? 0), grouped(copilotShape.token_budget.maxValue ?? 0)),
  token_lifetime_minutes: () => t('settings_error_minutes_range', Settings.shape.token_lifetime_minutes.minValue ?? 0, Settings.shape.token_lifetime_minutes.maxValue ?? 0),
  approval_window_minutes: () => t('settings_error_minutes_range', Settings.shape.approval_window_minutes.minValue ?? 0, Settings.shape.approval_window_minutes.maxValue ?? 0),
};

/** Field path (`copilot.endpoint`) → the sentence shown under it. */
function settingsFieldErrors(candidate: Settings): Record<string, string> {
  const parsed = Settings.safeParse(candidate);
  if (parsed.success) return {};
  const out: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const path = issue.path.join('.');
    out[path] ??= FIELD_PROBLEM[path]?.() ?? t('settings_error_invalid');
  }
  return out;
}

const sameTarget = (a: AuditExportTarget | null, b: AuditExportTarget | null) => (a === null || b === null ? a === b : a.host === b.host && a.port === b.port && a.tls === b.tls);

/** The whole form checked at once: everything to save, or every field's problem. */
export function checkSettingsForm(form: SettingsForm, stored: StoredNow): CheckedSettingsForm {
  const n = form.numbers;
  const settings: Settings = {
    ...form.settings,
    approval_window_minutes: Number(form.windowText),
    copilot: { ...form.settings.copilot, max_steps: Number(n.max_steps), time_budget_minutes: Number(n.time_budget_minutes), token_budget: Number(n.token_budget) },
  };
  const errors = settingsFieldErrors(settings);
  // Retention and target are read only once known: a part not loaded yet is left as it is.
  const retention = stored.retentionDays === undefined ? undefined : retentionFromText(form.retentionText);
  if (retention && !retention.ok) errors[RETENTION_FIELD] = retention.problem;
  const target = stored.exportTarget === undefined || stored.exportManaged ? undefined : targetFromForm(form.exportForm);
  if (target && !target.ok) {
    if (target.errors.host) errors[EXPORT_HOST_FIELD] = target.errors.host;
    if (target.errors.port) errors[EXPORT_PORT_FIELD] = target.errors.port;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    settings,
    ...(form.keyText.trim() && settings.copilot.provider !== 'prompt-api' ? { key: { provider: settings.copilot.provider, key: form.keyText.trim() } } : {}),
    ...(retention?.ok && retention.days !== stored.retentionDays ? { retention: { days: retention.days } } : {}),
    ...(target?.ok && stored.exportTarget !== undefined && !sameTarget(target.target, stored.exportTarget) ? { exportTarget: { target: target.target } } : {}),
  };
}

/** One part's result: done, or the worker's reason it was not. */
type Part<T> = { ok: true; value: T } | { ok: false; error: string };

export interface SaveReport {
  /** `waiting`: Chrome is asking the person whether Steward may reach the model's server; `refused`: they said no. */
  settings: Part<{ access: 'not_needed' | 'waiting' | 'granted' | 'refused'; server?: string }>;
  key?: Part<null>;
  /** The sentence on what the retention run kept and removed. */
  retention?: Part<string>;
  exportTarget?: Part<{ stopped: boolean }>;
}

/** What one Save did, part by part, in sentences: what was saved, and what was not and why. */
export function saveWords(r: SaveReport): string {
  const out: string[] = [];
  if (r.settings.ok) {
    const { access, server } = r.settings.value;
    out.push(server && access === 'waiting' ? t('settings_saved_waiting', server) : server && access === 'refused' ? t('settings_saved_refused', server) : t('settings_saved'));
  } else out.push(t('settings_prefs_not_saved', r.settings.error));
  if (r.key) out.push(r.key.ok ? t('copilot_key_saved') : t('copilot_key_not_saved', r.key.error));
  if (r.retention) out.push(r.retention.ok ? r.retention.value : t('keeping_retention_not_saved', r.retention.error));
  if (r.exportTarget) out.push(r.exportTarget.ok ? (r.exportTarget.value.stopped ? t('keeping_export_stopped') : t('keeping_export_saved')) : t('keeping_export_not_saved', r.exportTarget.error));
  return out.join(' ');
}
