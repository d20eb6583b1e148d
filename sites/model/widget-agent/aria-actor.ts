import { stripVTControlCharacters } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { parseAriaSnapshot, phraseIndex } from './aria-text.ts';
import type { ActResult, Actor, Hit, ResolvedStep } from './episode.ts';
import { withoutIcons } from './names.ts';
import type { View } from './view.ts';

/**
 * The anchor's hands: the same agent reading only `page.locator('body').ariaSnapshot()` and acting
 * by role and name (`getByRole(role, {name, exact})`, `getByText` for a line of plain text), with
 * Playwright's own mouse and keyboard — what an agent driving Playwright directly can do. A file
 * is chosen when asked (Playwright can; Steward leaves that to the person).
 */

export interface AriaActorOptions {
  /** Longest wait for one action (Playwright retries a covered or moving target until then). */
  actionTimeoutMs?: number;
}

/** The file the anchor attaches when a plan asks for one. */
const ANY_FILE = { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Notes for the form.\n') };

/** What Playwright's log says stopped it (`<fieldset>…</fieldset> intercepts pointer events`). */
const TELLING = /intercepts pointer events|not visible|not enabled|not stable|outside of the viewport|not attached|strict mode violation|resolved to/;

/** Playwright's error in a line: its message and the telling line of its log. */
function playwrightWords(error: unknown): string {
  const text = stripVTControlCharacters(error instanceof Error ? error.message : String(error));
  const lines = text.split('\n').map((l) => l.trim());
  const log = lines.filter((l) => l.startsWith('- ') && TELLING.test(l)).at(-1);
  return `Playwright: ${lines[0]}${log ? ` (${log.slice(2)})` : ''}`.slice(0, 400);
}

export class AriaActor implements Actor {
  constructor(
    private readonly page: Page,
    private readonly o: AriaActorOptions = {},
  ) {}

  async look(): Promise<{ text: string; view: View }> {
    const text = await this.page.locator('body').ariaSnapshot();
    return { text, view: parseAriaSnapshot(text) };
  }

  /**
   * The element the agent read: its role and name (the nth such), or for a text the element
   * showing it (`getByText`, exact first, else containing it: a snapshot line may join texts).
   */
  private async locate(hit: Hit, view: View): Promise<Locator | string> {
    const n = hit.node;
    if (n.control || n.role === 'heading') {
      const role = n.role as Parameters<Page['getByRole']>[0];
      const byRole = n.name ? this.page.getByRole(role, { name: n.name, exact: true }) : this.page.getByRole(role);
      return byRole.nth(n.nth ?? 0);
    }
    if (n.role === 'text') {
      const phrase = withoutIcons(hit.phrase ?? n.name);
      const k = phraseIndex(view, n, phrase);
      const exact = this.page.getByText(phrase, { exact: true }).filter({ visible: true });
      return (await exact.count()) > k ? exact.nth(k) : this.page.getByText(phrase).filter({ visible: true }).nth(k);
    }
    return `the snapshot shows only an unnamed ${n.role}, with nothing to act on by role and name`;
  }

  async act(step: ResolvedStep, view: View): Promise<ActResult> {
    const timeout = this.o.actionTimeoutMs ?? 3_000;
    const target = step.hit ? await this.locate(step.hit, view) : undefined;
    if (typeof target === 'string') return { ok: false, reason: target };
    try {
      switch (step.do) {
        case 'click':
          await target!.click({ timeout });
          break;
        case 'hover':
          await target!.hover({ timeout });
          break;
        case 'type':
          await target!.fill(step.text, { timeout });
          break;
        case 'select':
          await target!.selectOption(
            step.values.map((label) => ({ label })),
            { timeout },
          );
          break;
        case 'press':
          if (target) await target.press(step.key, { timeout });
          else await this.page.keyboard.press(step.key);
          break;
        case 'check':
          await target!.setChecked(step.checked, { timeout });
          break;
        case 'upload':
          await target!.setInputFiles(ANY_FILE, { timeout });
          break;
        case 'drag': {
          const onto = await this.locate(step.onto, view);
          if (typeof onto === 'string') return { ok: false, reason: `drop target: ${onto}` };
          const box = step.at === 'top' ? await onto.boundingBox({ timeout }) : null;
          await target!.dragTo(onto, { timeout, steps: 12, ...(box ? { targetPosition: { x: box.width / 2, y: Math.max(2, box.height * 0.2) } } : {}) });
          break;
        }
      }
    } catch (error) {
      return { ok: false, reason: playwrightWords(error) };
    }
    return { ok: true };
  }
}
