import { describe, expect, it } from 'vitest';
import { installPageDialogs } from '../../../src/content/main/page-dialogs.ts';
import { armPageDialogs } from '../../../src/content/act/page-dialogs.ts';
import { actOnTab } from '../../../src/background/ports/act.ts';
import type { PageDialog } from '../../../src/protocol/messages.ts';
import { fakeFrames } from '../background/core/fake-frames.ts';
import { FakeTabs } from '../background/ports/fake-tabs.ts';
import { PAGE_DIALOGS_ARM, PAGE_DIALOGS_REPLY } from '../../../src/protocol/page-channel-names.ts';

/** What the agent is told when the page raised `dialogs` while it acted (the worker's report of the act). */
async function dialogsMessage(dialogs: PageDialog[]): Promise<string | undefined> {
  const tabs = new FakeTabs();
  tabs.status.set(7, 'complete');
  const report = await actOnTab({ send: fakeFrames(async () => ({ ok: true, data: { steps: [], dialogs } })), tabs }, 7, [{ op: 'click', ref: 'e1' }], 'doc-1');
  return report.outcome === 'failed' ? report.message : undefined;
}

/**
 * Issue 27, self-approval: a JavaScript dialog the page raises while an agent acts is never
 * accepted — confirm answers Cancel, prompt no text — and is reported; outside an act the page's
 * dialogs are the browser's, for the person. A stand-in window with Node's EventTarget.
 */
function stage() {
  const shown: string[] = [];
  const doc = new EventTarget();
  const win = {
    document: doc,
    EventTarget,
    CustomEvent,
    JSON,
    String,
    confirm: (m?: string) => (shown.push(`confirm:${m}`), true),
    prompt: (m?: string) => (shown.push(`prompt:${m}`), 'typed by the person'),
    alert: (m?: string) => void shown.push(`alert:${m}`),
  };
  installPageDialogs(win as never);
  return { win, doc: doc as unknown as Document, shown };
}

describe('the page’s dialogs during an agent’s act', () => {
  it('are answered as a person who says no, never shown to be accepted, and reported', () => {
    const { win, doc, shown } = stage();
    const disarm = armPageDialogs([doc]);
    expect(win.confirm('Delete the note “Tax records”?')).toBe(false);
    expect(win.prompt('Type DELETE to confirm')).toBeNull();
    expect(win.alert('Deleted')).toBeUndefined();
    expect(shown).toEqual([]);
    expect(disarm()).toEqual([
      { kind: 'confirm', message: 'Delete the note “Tax records”?' },
      { kind: 'prompt', message: 'Type DELETE to confirm' },
      { kind: 'alert', message: 'Deleted' },
    ]);
  });

  it('outside an act they are the browser’s again, for the person', () => {
    const { win, doc, shown } = stage();
    armPageDialogs([doc])();
    expect(win.confirm('Leave?')).toBe(true);
    expect(shown).toEqual(['confirm:Leave?']);
  });

  it('a forged reply from the page is no list of dialogs; a forged “off” only shows the page’s own dialog to the person', () => {
    const { win, doc, shown } = stage();
    const disarm = armPageDialogs([doc]);
    doc.addEventListener(PAGE_DIALOGS_ARM, () => doc.dispatchEvent(new CustomEvent(PAGE_DIALOGS_REPLY, { detail: '{"not":"a list"}' })));
    doc.dispatchEvent(new CustomEvent(PAGE_DIALOGS_ARM, { detail: 'off' }));
    win.confirm('Sure?');
    expect(shown).toEqual(['confirm:Sure?']);
    expect(disarm()).toEqual([]);
  });

  it('tells the agent the page asked, that Steward said no, and that it is the person’s to do', async () => {
    const said = await dialogsMessage([{ kind: 'confirm', message: 'Remove the attachment “scan.pdf”?' }]);
    expect(said).toContain('Remove the attachment “scan.pdf”?');
    expect(said).toMatch(/never answers a page’s dialog/);
    expect(said).toMatch(/Ask the person/);
  });
});
