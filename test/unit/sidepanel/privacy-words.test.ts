import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';
import { describe, expect, it } from 'vitest';
import { removalWords, retentionFromText } from '../../../src/sidepanel/lib/audit-keeping.ts';
import { forgetWords, memoryWords } from '../../../src/sidepanel/lib/memory-words.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (setup-browser.ts installs English before each test). */
const vietnamese = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;

describe('the activity log block', () => {
  it('reads the retention field: empty keeps everything, whole days from 1 to 3650', () => {
    expect(retentionFromText('')).toEqual({ ok: true, days: null });
    expect(retentionFromText(' 30 ')).toEqual({ ok: true, days: 30 });
    for (const bad of ['0', '3651', '1.5', '-2', 'ten', '1e2']) expect(retentionFromText(bad)).toMatchObject({ ok: false });
  });

  it('says what a removal did, and what the export kept back', () => {
    expect(removalWords('retention', { removed: 12, kept_for_export: 0 }, 30)).toBe('Steward keeps 30 days of activity. 12 entries older than that removed (recorded in the log).');
    expect(removalWords('retention', { removed: 0, kept_for_export: 0 }, null)).toBe('Steward now keeps all activity.');
    expect(removalWords('clear', { removed: 1, kept_for_export: 3 }, undefined)).toBe(
      'Activity cleared: 1 entry removed. The log now starts with an entry that records the clear, so Verify chain still checks it. 3 entries not yet sent to your syslog collector stay until they are.',
    );
    expect(removalWords('clear', { removed: 0, kept_for_export: 0 })).toBe('Nothing to clear.');
  });

  it('says it in Vietnamese in a Vietnamese browser', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    expect(removalWords('retention', { removed: 12, kept_for_export: 0 }, 30)).toBe('Steward giữ hoạt động trong 30 ngày. Đã xoá 12 mục cũ hơn mức đó (có ghi lại trong nhật ký).');
    expect(retentionFromText('ten')).toEqual({ ok: false, problem: 'Hãy nhập một số ngày nguyên từ 1 đến 3650, hoặc để trống để giữ tất cả.' });
  });
});

describe('the memory block', () => {
  const at = '2026-12-06T10:00:00.000Z';
  it('names an entry by kind, resource and site, with its telling detail', () => {
    expect(
      memoryWords({
        id: 'mem_1',
        layer: 'durable',
        kind: 'resource_id',
        recorded_at: at,
        resource: { origin: 'https://shop.example', type: 'order', id: 'ORD-1' },
        payload: { url_hint: 'https://shop.example/o/1' },
      }),
    ).toEqual({ title: 'Where it was found — order ORD-1 on shop.example', detail: 'https://shop.example/o/1' });
    expect(memoryWords({ id: 'mem_2', layer: 'durable', kind: 'audit_reference', recorded_at: at, payload: { action: 'orders.cancel', outcome: 'confirmed' } })).toEqual({
      title: 'Past action — no particular resource',
      detail: 'orders.cancel: confirmed',
    });
  });

  it('says what forgetting a site did, and which agents stay tainted', () => {
    expect(forgetWords('https://shop.example', { site_removed: true, grant_removed: false, memory_removed: 2, tainted_agents: [] })).toBe(
      'Forgot https://shop.example: its access removed (Steward’s list and Chrome’s permission), 2 memory entries deleted. Recorded in Activity.',
    );
    expect(forgetWords('https://shop.example', { site_removed: false, grant_removed: true, memory_removed: 1, tainted_agents: ['agent:copilot'] })).toContain(
      'its agent-contract grant revoked, 1 memory entry deleted. Recorded in Activity. Page content from it already reached agent:copilot',
    );
  });

  it('in Vietnamese: the entry’s kind and the forget sentence, the site and the agent unchanged', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    expect(
      memoryWords({ id: 'mem_1', layer: 'durable', kind: 'resource_id', recorded_at: at, resource: { origin: 'https://shop.example', type: 'order', id: 'ORD-1' }, payload: { url_hint: 'x' } }).title,
    ).toBe('Nơi đã tìm thấy — order ORD-1 trên shop.example');
    expect(forgetWords('https://shop.example', { site_removed: false, grant_removed: false, memory_removed: 2, tainted_agents: [] })).toBe(
      'Đã quên https://shop.example: đã xoá 2 mục bộ nhớ. Có ghi lại trong Hoạt động.',
    );
  });
});
