import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../src/base/canonical-json.ts';
import { BrowserChainId, ExportRecord, type ExportRecord as Record_ } from '../../../src/protocol/audit-export.ts';

/**
 * One audit entry as an RFC 5424 syslog message, and back. No library: the few that format RFC
 * 5424 also own the transport (and none does octet-counted TCP with a flush acknowledgement), and
 * the format is small. Everything Steward exports sits in one SD-ELEMENT, `[steward@32473 …]`, so
 * a collector may re-render the header (timestamp, host) without breaking `audit verify`.
 *
 *   <PRI>1 TIMESTAMP HOSTNAME steward - KIND [steward@32473 chain=… seq=… at=… kind=… agent=…
 *     action=… origin=… rtype=… rid=… outcome=… error=… prev=… hash=… digest=…] MSG
 *
 * PRI: facility 13 ("log audit", RFC 5424 table 1) with a severity by kind. `digest`: SHA-256 of
 * the canonical JSON (RFC 8785) of the chain id and the exported record, so an edited field is
 * caught even though the chain's `hash` covers fields that never leave the browser (details).
 * 32473 is the private enterprise number RFC 5612 reserves for documentation.
 */
const SD_ID = 'steward@32473';
const FACILITY_LOG_AUDIT = 13;
const APP_NAME = 'steward';

/** RFC 5424 severities: 2 critical, 4 warning, 5 notice, 6 informational. */
function severity(r: Record_): number {
  if (r.outcome === 'audit_chain_broken') return 2;
  if (r.kind === 'failure' || r.kind === 'denial' || r.kind === 'export') return 4;
  if (r.kind === 'observation' || r.kind === 'token') return 6;
  return 5;
}

export function recordDigest(chain: string, r: Record_): string {
  return createHash('sha256')
    .update(canonicalJson({ chain, ...r }))
    .digest('hex');
}

/** PARAM-VALUE escaping (RFC 5424 §6.3.3): `"`, `\` and `]` take a backslash. */
const escape = (value: string) => value.replace(/["\\\]]/g, (c) => `\\${c}`);

/** PRINTUSASCII, at most `max` characters, or the NILVALUE `-`. */
function headerField(value: string, max: number): string {
  const clean = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return clean || '-';
}

/** The syslog message (without framing). */
export function formatSyslog(chain: string, r: Record_, hostname: string): string {
  const params: [string, string | number | undefined][] = [
    ['chain', chain],
    ['seq', r.seq],
    ['at', r.at],
    ['kind', r.kind],
    ['agent', r.agent_id],
    ['action', r.action],
    ['origin', r.resource?.origin],
    ['rtype', r.resource?.type],
    ['rid', r.resource?.id],
    ['outcome', r.outcome],
    ['error', r.error_code],
    ['prev', r.prev_hash],
    ['hash', r.hash],
    ['digest', recordDigest(chain, r)],
  ];
  const sd = `[${SD_ID}${params.map(([k, v]) => (v === undefined ? '' : ` ${k}="${escape(String(v))}"`)).join('')}]`;
  const pri = FACILITY_LOG_AUDIT * 8 + severity(r);
  const what = [r.agent_id, r.kind, r.action, r.resource ? `${r.resource.type}:${r.resource.id}` : undefined, r.outcome, r.error_code].filter(Boolean).join(' ');
  // Every field is ASCII (ids, origins, snake_case), so MSG needs no BOM.
  return `<${pri}>1 ${r.at} ${headerField(hostname, 255)} ${APP_NAME} - ${headerField(r.kind, 32)} ${sd} audit ${r.seq}: ${what}`;
}

/** RFC 6587 §3.4.1 octet-counting: `MSG-LEN SP SYSLOG-MSG`, the length in bytes. */
export function octetFrame(message: string): Buffer {
  const body = Buffer.from(message, 'utf8');
  return Buffer.concat([Buffer.from(`${body.length} `, 'ascii'), body]);
}

export type ParsedLine =
  | { kind: 'entry'; chain: string; record: Record_; digest: string }
  /** Carries Steward's SD-ELEMENT but it cannot be read back: damaged or edited. */
  | { kind: 'malformed'; problem: string }
  /** Not Steward's (other syslog traffic in the same file). */
  | { kind: 'other' };

/** The SD-ELEMENT's params, unescaped; undefined when the element does not close. */
function readParams(text: string, from: number): Map<string, string> | { problem: string } {
  const params = new Map<string, string>();
  let i = from;
  const param = /^ ([^= "\]]{1,32})="/;
  for (;;) {
    if (text[i] === ']') return params;
    const m = param.exec(text.slice(i, i + 40));
    if (!m) return { problem: `unexpected text in the ${SD_ID} element at column ${i + 1}` };
    i += m[0].length;
    let value = '';
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\' || text[i + 1] === ']')) i++;
      value += text[i++];
    }
    if (i >= text.length) return { problem: `the ${SD_ID} element is cut off` };
    i++;
    if (params.has(m[1]!)) return { problem: `param ${m[1]} appears twice` };
    params.set(m[1]!, value);
  }
}

/** Finds Steward's SD-ELEMENT anywhere in a collected line (whatever header the collector wrote) and reads the record back. */
export function parseSyslogLine(line: string): ParsedLine {
  const at = line.indexOf(`[${SD_ID}`);
  if (at < 0) return { kind: 'other' };
  const params = readParams(line, at + SD_ID.length + 1);
  if (!(params instanceof Map)) return { kind: 'malformed', ...params };
  const get = (k: string) => params.get(k);
  const seq = get('seq');
  const origin = get('origin');
  const rtype = get('rtype');
  const rid = get('rid');
  const candidate = {
    seq: seq !== undefined && /^\d{1,15}$/.test(seq) ? Number(seq) : seq,
    at: get('at'),
    kind: get('kind'),
    agent_id: get('agent'),
    ...(get('action') !== undefined ? { action: get('action') } : {}),
    ...(rtype !== undefined || rid !== undefined ? { resource: { ...(origin !== undefined ? { origin } : {}), type: rtype, id: rid } } : {}),
    ...(get('outcome') !== undefined ? { outcome: get('outcome') } : {}),
    ...(get('error') !== undefined ? { error_code: get('error') } : {}),
    prev_hash: get('prev'),
    hash: get('hash'),
  };
  const record = ExportRecord.safeParse(candidate);
  const chain = BrowserChainId.safeParse(get('chain'));
  const digest = get('digest');
  if (!chain.success) return { kind: 'malformed', problem: 'no valid chain id' };
  if (!record.success) {
    const issue = record.error.issues[0];
    return { kind: 'malformed', problem: `${issue?.path.join('.') || 'record'}: ${issue?.message ?? 'invalid'}` };
  }
  if (!digest || !/^[0-9a-f]{64}$/.test(digest)) return { kind: 'malformed', problem: 'no digest' };
  return { kind: 'entry', chain: chain.data, record: record.data, digest };
}
