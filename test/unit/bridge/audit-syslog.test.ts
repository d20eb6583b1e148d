import { describe, expect, it } from 'vitest';
import { formatSyslog, octetFrame, parseSyslogLine, recordDigest } from '../../../bridge/src/audit/syslog-line.ts';
import { describeOutcome, verifyLines } from '../../../bridge/src/audit/verify-lines.ts';
import { AUDIT_GENESIS_HASH } from '../../../src/protocol/audit.ts';
import type { ExportRecord } from '../../../src/protocol/audit-export.ts';

const CHAIN = 'b-0123456789abcdef';
const h = (n: number) => n.toString(16).padStart(64, '0');

/** A chain of n records as Steward would export them (hash n+1, prev = the previous one's hash). */
function chain(n: number, from = 0): ExportRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const seq = from + i;
    return {
      seq,
      at: `2026-12-06T15:40:${String(seq % 60).padStart(2, '0')}.123Z`,
      kind: seq % 2 ? 'approval' : 'proposal',
      agent_id: 'agent:copilot-1',
      action: 'orders.cancel',
      resource: { origin: 'https://shop.example', type: 'order', id: `ORD-${1000 + seq}` },
      outcome: seq % 2 ? 'approved' : 'proposed',
      prev_hash: seq === 0 ? AUDIT_GENESIS_HASH : h(seq),
      hash: h(seq + 1),
    };
  });
}
const lines = (records: ExportRecord[], chainId = CHAIN) => records.map((r) => formatSyslog(chainId, r, 'laptop-7')).join('\n');

/** RFC 5424 §6 ABNF, header and one SD-ELEMENT, as a regular expression. */
const RFC5424 =
  /^<(\d{1,3})>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d:\d\d)) ([\x21-\x7e]{1,255}) ([\x21-\x7e]{1,48}) ([\x21-\x7e]{1,128}) ([\x21-\x7e]{1,32}) (\[[^ =\]"]{1,32}(?: [^ =\]"]{1,32}="(?:[^"\\\]]|\\["\\\]])*")*\])(?: (.*))?$/;

describe('RFC 5424 formatting', () => {
  it('writes a message that matches RFC 5424: version 1, facility 13 (log audit), app steward, the kind as MSGID, one steward@32473 element', () => {
    const [record] = chain(2, 1);
    const m = RFC5424.exec(formatSyslog(CHAIN, record!, 'laptop-7'));
    expect(m).not.toBeNull();
    const [, pri, ts, host, app, procid, msgid, sd, msg] = m!;
    expect(Number(pri) >> 3).toBe(13);
    expect(Number(pri) & 7).toBe(5); // notice
    expect([ts, host, app, procid, msgid]).toEqual(['2026-12-06T15:40:01.123Z', 'laptop-7', 'steward', '-', 'approval']);
    expect(sd).toContain(`[steward@32473 chain="${CHAIN}" seq="1" at="2026-12-06T15:40:01.123Z" kind="approval" agent="agent:copilot-1" action="orders.cancel"`);
    expect(sd).toContain(`prev="${h(1)}" hash="${h(2)}" digest="${recordDigest(CHAIN, record!)}"`);
    expect(msg).toBe('audit 1: agent:copilot-1 approval orders.cancel order:ORD-1001 approved');
  });

  it('escapes ", \\ and ] in PARAM-VALUE (§6.3.3) and reads them back unchanged', () => {
    const record: ExportRecord = { ...chain(1)[0]!, resource: { type: 'order', id: 'A"B\\C]D' } };
    const text = formatSyslog(CHAIN, record, 'host');
    expect(text).toContain('rid="A\\"B\\\\C\\]D"');
    expect(RFC5424.test(text)).toBe(true);
    expect(parseSyslogLine(text)).toEqual({ kind: 'entry', chain: CHAIN, record, digest: recordDigest(CHAIN, record) });
  });

  it('uses the NILVALUE for a host name with nothing printable, and warning / critical severities where they belong', () => {
    const base = chain(1)[0]!;
    expect(formatSyslog(CHAIN, base, '  ')).toMatch(/^<\d+>1 \S+ - steward - proposal /);
    expect(formatSyslog(CHAIN, { ...base, kind: 'failure' }, 'h')).toMatch(/^<108>/);
    expect(formatSyslog(CHAIN, { ...base, kind: 'recovery', outcome: 'audit_chain_broken' }, 'h')).toMatch(/^<106>/);
  });

  it('frames with RFC 6587 octet counting: the length in bytes, a space, the message', () => {
    expect(octetFrame('<13>1 - - - - - - é').toString('utf8')).toBe('20 <13>1 - - - - - - é');
  });

  it('finds the element behind any header a collector writes, and leaves other traffic alone', () => {
    const [record] = chain(1);
    const line = `Dec  6 15:40:00 collector ${formatSyslog(CHAIN, record!, 'h')}`;
    expect(parseSyslogLine(line)).toMatchObject({ kind: 'entry', record });
    expect(parseSyslogLine('<13>1 2026-12-06T15:40:00Z host sshd 12 - - login')).toEqual({ kind: 'other' });
    expect(parseSyslogLine('<13>1 - - - - - [steward@32473 seq="1"')).toMatchObject({ kind: 'malformed' });
  });
});

describe('audit verify', () => {
  it('passes an unbroken chain, with the duplicates a retry leaves', () => {
    const records = chain(6);
    const text = lines([...records.slice(0, 4), ...records.slice(2)]);
    const outcome = verifyLines([{ file: 'a.log', text }]);
    expect(outcome).toMatchObject({ ok: true, chains: [{ chain: CHAIN, first: 0, last: 5, entries: 6, duplicates: 2, head_hash: h(6) }] });
    expect(describeOutcome(outcome)).toContain('seq 0–5, 6 entries (2 duplicate lines), unbroken');
  });

  it('checks each browser on its own, across files in order', () => {
    const other = 'b-fedcba9876543210';
    const outcome = verifyLines([
      { file: 'a.log', text: `${lines(chain(3))}\n${lines(chain(2), other)}` },
      { file: 'b.log', text: `${lines(chain(2, 3))}\n${lines(chain(1, 2), other)}` },
    ]);
    expect(outcome).toMatchObject({
      ok: true,
      chains: [
        { chain: CHAIN, entries: 5 },
        { chain: other, entries: 3 },
      ],
    });
  });

  it('names the first break: an edited field, a missing entry, reordering, a rewritten hash, a conflicting duplicate', () => {
    const records = chain(5);
    const text = lines(records).split('\n');
    const edited = [...text];
    edited[2] = edited[2]!.replace('outcome="proposed"', 'outcome="denied"');
    expect(verifyLines([{ file: 'f', text: edited.join('\n') }])).toMatchObject({ ok: false, break: { line: 3, seq: 2, problem: 'tampered' } });

    const gap = text.filter((_, i) => i !== 2);
    expect(verifyLines([{ file: 'f', text: gap.join('\n') }])).toMatchObject({ ok: false, break: { seq: 2, problem: 'gap' } });

    const swapped = [text[0], text[1], text[3], text[2], text[4]];
    expect(verifyLines([{ file: 'f', text: swapped.join('\n') }])).toMatchObject({ ok: false, break: { line: 4, seq: 2, problem: 'reordered' } });

    // A whole entry replaced by a consistent forgery (its digest recomputed): the chain's link catches it.
    const forged = { ...records[2]!, hash: h(99) };
    const relinked = [...text];
    relinked[2] = formatSyslog(CHAIN, forged, 'laptop-7');
    expect(verifyLines([{ file: 'f', text: relinked.join('\n') }])).toMatchObject({ ok: false, break: { line: 4, seq: 3, problem: 'broken_link' } });

    const conflicting = [...text, formatSyslog(CHAIN, { ...records[1]!, outcome: 'denied' }, 'laptop-7')];
    expect(verifyLines([{ file: 'f', text: conflicting.join('\n') }])).toMatchObject({ ok: false, break: { line: 6, seq: 1, problem: 'conflict' } });
  });

  it('refuses a first entry that does not chain from the genesis hash', () => {
    const [first] = chain(1);
    expect(verifyLines([{ file: 'f', text: lines([{ ...first!, prev_hash: h(7) }]) }])).toMatchObject({ ok: false, break: { problem: 'broken_link', seq: 0 } });
  });
});
