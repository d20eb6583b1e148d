import { fakeBrowser } from '@webext-core/fake-browser';
import { vi } from 'vitest';
import type { Scripting } from 'webextension-polyfill';
import { browser } from '../../../../src/background/core/browser.ts';

type Script = Scripting.RegisteredContentScript;

/**
 * chrome.scripting as Steward uses it, in memory (fake-browser does not fake it): registered
 * content scripts, with every state they went through, and the scripts injected into tabs.
 */
export class FakeScripting {
  registered: Script[] = [];
  /** Each registration state after a change, in order. */
  history: Script[][] = [];
  injected: Scripting.ScriptInjection[] = [];
  /** Tabs Chrome's own site access keeps Steward out of: injecting there fails. */
  blocked = new Set<number>();

  private changed(): void {
    this.history.push(structuredClone(this.registered));
  }

  readonly api = {
    getRegisteredContentScripts: async (): Promise<Script[]> => structuredClone(this.registered),
    registerContentScripts: async (scripts: Script[]): Promise<void> => {
      for (const s of scripts) if (this.registered.some((r) => r.id === s.id)) throw new Error(`Duplicate script ID '${s.id}'`);
      this.registered.push(...structuredClone(scripts));
      this.changed();
    },
    updateContentScripts: async (scripts: Script[]): Promise<void> => {
      for (const s of scripts) {
        const i = this.registered.findIndex((r) => r.id === s.id);
        if (i < 0) throw new Error(`No script with ID '${s.id}'`);
        this.registered[i] = { ...this.registered[i]!, ...structuredClone(s) };
      }
      this.changed();
    },
    unregisterContentScripts: async (filter?: { ids?: string[] }): Promise<void> => {
      this.registered = filter?.ids ? this.registered.filter((r) => !filter.ids!.includes(r.id)) : [];
      this.changed();
    },
    executeScript: async (injection: Scripting.ScriptInjection): Promise<Scripting.InjectionResult[]> => {
      if (this.blocked.has(injection.target.tabId)) throw new Error('Cannot access contents of the page.');
      this.injected.push(structuredClone(injection));
      return [{ frameId: 0, documentId: 'doc', result: undefined }];
    },
  };

  /** Puts this fake behind `browser.scripting` for the current test. */
  install(): this {
    for (const [name, fn] of Object.entries(this.api)) vi.spyOn(fakeBrowser.scripting, name as keyof typeof this.api).mockImplementation(fn as never);
    return this;
  }
}

/** Chrome's tabs.query matches `url` as a match pattern; fake-browser compares it as a string. */
export function queryTabsByPattern(): void {
  const all = browser.tabs.query.bind(browser.tabs);
  vi.spyOn(browser.tabs, 'query').mockImplementation(async (info) => {
    const { url, ...rest } = info;
    const tabs = await all(rest);
    if (typeof url !== 'string') return tabs;
    const prefix = url.replace(/\*$/, '');
    return tabs.filter((t) => t.url?.startsWith(prefix));
  });
}
