import { z } from 'zod';
import { FrameTools } from '../../protocol/webmcp.ts';
import { ToolRegistry } from './registry.ts';
import { browser } from '../core/browser.ts';

const STORAGE_KEY = 'webmcp.frames';
const Stored = z.array(FrameTools);

/**
 * The tool registry survives service-worker restarts in chrome.storage.session (in memory,
 * cleared with the browser, and not readable by content scripts at its default access level).
 */
export class ToolStore {
  readonly registry = new ToolRegistry();
  readonly ready: Promise<void> = browser.storage.session.get(STORAGE_KEY).then((items) => {
    const parsed = Stored.safeParse(items[STORAGE_KEY] ?? []);
    this.registry.load(parsed.success ? parsed.data : []);
  });

  async save(): Promise<void> {
    await browser.storage.session.set({ [STORAGE_KEY]: this.registry.all() });
  }
}
