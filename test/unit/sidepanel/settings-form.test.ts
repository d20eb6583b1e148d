import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { DEFAULT_SETTINGS } from '../../../src/protocol/settings.ts';
import { exportFormOf } from '../../../src/sidepanel/lib/audit-export-words.ts';
import { checkSettingsForm, copilotNumbers, saveWords, type SettingsForm, type StoredNow } from '../../../src/sidepanel/lib/settings-form.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

const vietnamese = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;

/** The form as Settings shows it for what is stored: nothing changed yet. */
const stored: StoredNow = { retentionDays: 30, exportTarget: { host: 'logs.example.org', port: 6514, tls: true }, exportManaged: false };
const untouched: SettingsForm = {
  settings: DEFAULT_SETTINGS,
  windowText: String(DEFAULT_SETTINGS.approval_window_minutes),
  numbers: copilotNumbers(DEFAULT_SETTINGS.copilot),
  retentionText: '30',
  exportForm: exportFormOf(stored.exportTarget),
  keyText: '',
};

describe('Settings’ one Save', () => {
  it('saves the preferences and leaves retention, export target and key alone when they did not change', () => {
    expect(checkSettingsForm(untouched, stored)).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it('saves retention, export target and a typed key together with the preferences', () => {
    const form: SettingsForm = { ...untouched, windowText: '20', retentionText: ' 7 ', exportForm: { host: 'collector.internal', port: '514', tls: false }, keyText: ' sk-1 ' };
    expect(checkSettingsForm(form, stored)).toEqual({
      ok: true,
      settings: { ...DEFAULT_SETTINGS, approval_window_minutes: 20 },
      key: { provider: 'openai', key: 'sk-1' },
      retention: { days: 7 },
      exportTarget: { target: { host: 'collector.internal', port: 514, tls: false } },
    });
    // Emptying the fields: keep everything, send nothing.
    expect(checkSettingsForm({ ...untouched, retentionText: '', exportForm: { ...untouched.exportForm, host: '' } }, stored)).toMatchObject({
      ok: true,
      retention: { days: null },
      exportTarget: { target: null },
    });
  });

  it('saves nothing while any field is wrong, and says for each wrong field what it accepts', () => {
    const form: SettingsForm = {
      ...untouched,
      settings: { ...DEFAULT_SETTINGS, copilot: { ...DEFAULT_SETTINGS.copilot, endpoint: 'ftp://model.example' } },
      windowText: '61',
      numbers: { ...untouched.numbers, token_budget: '12' },
      retentionText: 'ten',
      exportForm: { host: 'logs.example.org', port: '70000', tls: true },
    };
    expect(checkSettingsForm(form, stored)).toEqual({
      ok: false,
      errors: {
        approval_window_minutes: 'must be a whole number of minutes from 1 to 60',
        'copilot.endpoint': 'must be an http(s) URL, or empty',
        'copilot.token_budget': 'must be a whole number of tokens from 1,000 to 5,000,000',
        audit_retention: 'Enter a whole number of days from 1 to 3650, or leave it empty to keep everything.',
        'audit_export.port': 'must be a port number (1–65535)',
      },
    });
  });

  it('leaves a part alone that is not known yet, or that the organisation sets', () => {
    const form: SettingsForm = { ...untouched, retentionText: 'ten', exportForm: { host: 'elsewhere.example', port: 'x', tls: false } };
    expect(checkSettingsForm(form, { retentionDays: undefined, exportTarget: undefined, exportManaged: false })).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
    expect(checkSettingsForm({ ...form, retentionText: '30' }, { ...stored, exportManaged: true })).toEqual({ ok: true, settings: DEFAULT_SETTINGS });
  });

  it('takes no key for the Prompt API, which needs none', () => {
    const form: SettingsForm = { ...untouched, settings: { ...DEFAULT_SETTINGS, copilot: { ...DEFAULT_SETTINGS.copilot, provider: 'prompt-api' } }, keyText: 'sk-1' };
    expect(checkSettingsForm(form, stored)).not.toHaveProperty('key');
  });

  it('says what one Save did, part by part, and what was not saved and why', () => {
    expect(
      saveWords({
        settings: { ok: true, value: { access: 'not_needed' } },
        retention: { ok: true, value: 'Steward keeps 7 days of activity.' },
        exportTarget: { ok: true, value: { stopped: false } },
      }),
    ).toBe('Settings saved. Steward keeps 7 days of activity. Audit export target saved.');
    expect(saveWords({ settings: { ok: true, value: { access: 'refused', server: 'http://localhost:11434' } }, exportTarget: { ok: false, error: 'The audit export is not available here.' } })).toBe(
      'Settings saved. Chrome did not give Steward access to http://localhost:11434, so the co-pilot cannot reach its model there: save again to be asked once more. Audit export target not saved: The audit export is not available here.',
    );
    expect(saveWords({ settings: { ok: false, error: 'storage full' }, key: { ok: true, value: null }, exportTarget: { ok: true, value: { stopped: true } } })).toBe(
      'Preferences not saved: storage full Key saved. It is kept by Steward’s service worker and will not be shown again. Audit export stopped.',
    );
  });

  it('says it in Vietnamese in a Vietnamese browser', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    expect(checkSettingsForm({ ...untouched, windowText: '0' }, stored)).toEqual({ ok: false, errors: { approval_window_minutes: 'phải là số phút nguyên từ 1 đến 60' } });
    expect(saveWords({ settings: { ok: true, value: { access: 'granted', server: 'http://localhost:11434' } }, exportTarget: { ok: true, value: { stopped: false } } })).toBe(
      'Đã lưu cài đặt. Đã lưu đích xuất nhật ký kiểm toán.',
    );
  });
});
