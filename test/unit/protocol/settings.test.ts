import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, readSettings } from '../../../src/protocol/settings.ts';

describe('settings', () => {
  it('fills in defaults when nothing or garbage is stored', () => {
    expect(readSettings(undefined)).toEqual(DEFAULT_SETTINGS);
    expect(readSettings('nonsense')).toEqual(DEFAULT_SETTINGS);
  });

  it('keeps valid fields and replaces only the bad ones', () => {
    const s = readSettings({ polyfill_enabled: false, approval_window_minutes: 600, token_lifetime_minutes: 15, copilot: { endpoint: 'javascript:alert(1)', model: 'm' } });
    expect(s).toEqual({
      polyfill_enabled: false,
      show_debugging_tools: false,
      approval_window_minutes: 15,
      token_lifetime_minutes: 15,
      copilot: { ...DEFAULT_SETTINGS.copilot, endpoint: '', model: 'm' },
    });
  });

  it('hides debugging tools from agents unless the person turned them on', () => {
    expect(DEFAULT_SETTINGS.show_debugging_tools).toBe(false);
    expect(readSettings({ show_debugging_tools: 'yes' }).show_debugging_tools).toBe(false);
    expect(readSettings({ show_debugging_tools: true }).show_debugging_tools).toBe(true);
  });
});
