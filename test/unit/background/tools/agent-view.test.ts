import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it, vi } from 'vitest';
import { onDebuggingToolsSettingChanged } from '../../../../src/background/tools/agent-view.ts';
import { SETTINGS_KEY } from '../../../../src/protocol/settings.ts';

describe('the person’s choice to show agents the pages’ debugging tools', () => {
  it('is heard when it is turned on or off in Settings (MCP clients are then offered the pages’ tools afresh), not when another setting changes', async () => {
    const changed = vi.fn();
    onDebuggingToolsSettingChanged(changed);
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { polyfill_enabled: false } });
    await fakeBrowser.storage.session.set({ [SETTINGS_KEY]: { show_debugging_tools: true } });
    expect(changed).not.toHaveBeenCalled();
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { polyfill_enabled: false, show_debugging_tools: true } });
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { polyfill_enabled: true, show_debugging_tools: true } });
    await fakeBrowser.storage.local.set({ [SETTINGS_KEY]: { polyfill_enabled: true, show_debugging_tools: false } });
    await vi.waitFor(() => expect(changed).toHaveBeenCalledTimes(2));
  });
});
