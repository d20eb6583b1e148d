import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { controlLabel, controlLabelParts } from '../../../src/pipeline/written-controls.ts';
import { ApprovalReason } from '../../../src/protocol/approval.ts';
import type { ElementSummary } from '../../../src/protocol/element.ts';
import { phrase } from '../../../src/protocol/phrase.ts';
import { said } from '../../../src/sidepanel/lib/phrases.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

/**
 * The card's reason for a control that wrote before ("on …, using the button “Delete note”
 * before sent a request …"): the control's role in the person's words, its name as the page has
 * it; the English exactly as the runner writes it (src/pipeline/runner.ts, wroteBefore).
 */

const catalogue = (lang: string) => JSON.parse(readFileSync(new URL(`../../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8')) as Catalogue;
const speak = (lang: 'en' | 'vi') => useMessageSource(catalogueSource(catalogue(lang), lang === 'en' ? 'en-US' : 'vi'));
afterEach(() => speak('en'));

const target = (role: string, name: string): ElementSummary => ({ ref: 'e4', role, name, states: [], visibility: 'visible' });
const ORIGIN = 'http://notes.localhost';
const request = { method: 'POST', url: 'http://notes.localhost/api/notes/3/delete' };

/** The reason as the runner writes it for a remembered control: its English and its phrase. */
function wroteBefore(label: string) {
  const english = `on ${ORIGIN}, using the ${label} before sent a request that may have written (${request.method} ${request.url}); Steward treats it as consequential from then on`;
  const words = phrase('reason_wrote_before', { origin: ORIGIN, control: label, method: request.method, url: request.url, ...controlLabelParts(label) });
  return { english, words };
}

describe('a control that wrote before, on the card', () => {
  it('reads the role and name back from the remembered label, whatever the name holds', () => {
    expect(controlLabelParts(controlLabel(target('button', 'Delete  note')))).toEqual({ role: 'button', name: 'Delete note' });
    expect(controlLabelParts(controlLabel(target('menuitemcheckbox', 'Say “hi” ”')))).toEqual({ role: 'menuitemcheckbox', name: 'Say “hi” ”' });
    expect(controlLabelParts(controlLabel(target('switch', ' ')))).toEqual({ role: 'switch' });
    expect(controlLabelParts('something else')).toBeUndefined();
  });

  it('names the role in Vietnamese, the name as the page has it, and keeps the English word for word', () => {
    const named = wroteBefore(controlLabel(target('button', 'Delete note')));
    const unnamed = wroteBefore(controlLabel(target('checkbox', '')));
    expect(said(named.words, '')).toBe(named.english);
    expect(said(unnamed.words, '')).toBe(unnamed.english);
    speak('vi');
    expect(said(named.words, named.english)).toBe(
      `trên ${ORIGIN}, lần trước dùng nút “Delete note” đã gửi một yêu cầu có thể đã ghi dữ liệu (POST ${request.url}); từ đó Steward coi nó là thao tác có tác động lâu dài`,
    );
    expect(said(unnamed.words, unnamed.english)).toContain('lần trước dùng một ô đánh dấu không có tên đã gửi');
    // A role Steward has no word for stays as the page has it.
    expect(said(wroteBefore(controlLabel(target('doc-noteref', 'Note 1'))).words, '')).toContain('lần trước dùng doc-noteref “Note 1” đã gửi');
  });

  it('says a phrase from before (no role) with the label as it is, and drops a forged one', () => {
    speak('vi');
    const old = { code: 'reason_wrote_before', params: { origin: ORIGIN, control: 'button “Save”', method: 'POST', url: request.url } };
    expect(said(old, '')).toContain('lần trước dùng button “Save” đã gửi');
    // The card's reason arrives; a phrase that does not fit is dropped and its English shown.
    const { english } = wroteBefore('button “Save”');
    const reason = ApprovalReason.parse({ code: 'not_read_only', detail: english, detail_said: { code: 'reason_wrote_before', params: { origin: ORIGIN, role: { toString: 'button' } } } });
    expect(reason.detail_said).toBeUndefined();
    expect(said(reason.detail_said, reason.detail!)).toBe(english);
  });
});
