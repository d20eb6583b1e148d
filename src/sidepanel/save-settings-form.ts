import type { AuditExportStatus } from '../protocol/audit-export.ts';
import { setAuditExportTarget, setAuditRetention, setModelKey } from './background-client.ts';
import { removalWords } from './lib/audit-keeping.ts';
import type { CheckedSettingsForm, SaveReport } from './lib/settings-form.ts';
import { saveSettings } from './settings.ts';

type Checked = Extract<CheckedSettingsForm, { ok: true }>;
type Part<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(work: () => Promise<T>): Promise<Part<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * Settings' one Save, once every field checked out: the preferences (chrome.storage.local), a
 * typed API key, the retention period and the export target (the service worker's), each
 * written on its own, so one the worker refuses neither stops nor undoes the others, and the
 * report says which were saved.
 */
export async function saveSettingsForm(
  checked: Checked,
  on: { retentionSaved: (days: number | null) => void; exportSaved: (status: AuditExportStatus) => void },
): Promise<Omit<SaveReport, 'settings'> & { settings: Part<null> }> {
  const settings = await attempt(async () => {
    await saveSettings(checked.settings);
    return null;
  });
  const { key, retention, exportTarget } = checked;
  return {
    settings,
    ...(key
      ? {
          key: await attempt(async () => {
            await setModelKey(key.provider, key.key);
            return null;
          }),
        }
      : {}),
    ...(retention
      ? {
          retention: await attempt(async () => {
            const removal = await setAuditRetention(retention.days);
            on.retentionSaved(retention.days);
            return removalWords('retention', removal, retention.days);
          }),
        }
      : {}),
    ...(exportTarget
      ? {
          exportTarget: await attempt(async () => {
            on.exportSaved(await setAuditExportTarget(exportTarget.target));
            return { stopped: exportTarget.target === null };
          }),
        }
      : {}),
  };
}
