import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useMessageSource } from '../../../src/base/i18n.ts';
import type { AuditExportStatus } from '../../../src/protocol/audit-export.ts';
import { auditExportWords, targetFromForm } from '../../../src/sidepanel/lib/audit-export-words.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

/** The Vietnamese catalogue, as Chrome in Vietnamese gives it (setup-browser.ts installs English before each test). */
const vietnamese = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;

const now = Date.parse('2026-12-06T10:00:00.000Z');
const failing: AuditExportStatus = {
  target: { host: 'logs.example.org', port: 6514, tls: true },
  pending: 3,
  waiting_in_log: 0,
  capacity: 1000,
  nearly_full: false,
  sent_through: -1,
  problem: 'TLS with the collector at tls://logs.example.org:6514 failed: connection refused.',
  next_attempt_at: '2026-12-06T10:00:30.000Z',
};

describe('Settings: the audit export line', () => {
  it('off, with what still waits in the outbox', () => {
    expect(auditExportWords({ ...failing, target: null, problem: undefined }, now)).toEqual({
      headline: 'Audit export: off',
      lines: ['3 entries are still waiting in the outbox; they go out when a collector is set again.'],
      alert: false,
    });
  });

  it('failing: where to, what waits, the collector’s problem and when Steward tries again', () => {
    expect(auditExportWords(failing, now)).toEqual({
      headline: 'Audit export to TLS logs.example.org:6514: failing',
      lines: ['3 entries waiting to be sent (outbox holds up to 1000).', `${failing.problem} Next attempt in 30 s.`],
      alert: true,
    });
  });

  it('up to date once the collector took everything', () => {
    expect(auditExportWords({ ...failing, pending: 0, problem: undefined, next_attempt_at: undefined, sent_through: 41 }, now)).toEqual({
      headline: 'Audit export to TLS logs.example.org:6514: up to date',
      lines: ['Every entry has been taken by the collector.', 'Sent through entry 41.'],
      alert: false,
    });
  });

  it('in Vietnamese, the collector’s address unchanged, a problem without a phrase as the worker wrote it', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    const w = auditExportWords(failing, now);
    expect(w.headline).toBe('Xuất nhật ký kiểm toán tới TLS logs.example.org:6514: đang lỗi');
    expect(w.lines).toEqual(['3 mục đang chờ gửi (hộp thư đi chứa tối đa 1000 mục).', `${failing.problem} Thử lại sau 30 giây.`]);
  });

  it('says the collector’s problem in Vietnamese when steward-bridge sent it as a phrase', () => {
    useMessageSource(catalogueSource(vietnamese, 'vi'));
    const refused = { ...failing, problem_said: { code: 'collector_refused', params: { where: 'tls://logs.example.org:6514' } } };
    expect(auditExportWords(refused, now).lines[1]).toBe('Máy thu tại tls://logs.example.org:6514 đã từ chối kết nối (máy thu có đang lắng nghe trên cổng đó không?). Thử lại sau 30 giây.');
  });

  it('reads the target form: an empty host sends nothing, and each wrong field says what it accepts', () => {
    expect(targetFromForm({ host: 'logs.example.org', port: '6514', tls: true })).toEqual({ ok: true, target: { host: 'logs.example.org', port: 6514, tls: true } });
    expect(targetFromForm({ host: '  ', port: 'x', tls: true })).toEqual({ ok: true, target: null });
    expect(targetFromForm({ host: 'logs.example.org', port: 'x', tls: true })).toEqual({ ok: false, errors: { port: 'must be a port number (1–65535)' } });
    expect(targetFromForm({ host: 'tcp://logs', port: '', tls: false })).toEqual({
      ok: false,
      errors: { host: 'must be a host name or an IP address, without a scheme or port', port: 'must be a port number (1–65535)' },
    });
  });
});
