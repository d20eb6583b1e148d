import { z } from 'zod';
import { ActionName } from './action-name.ts';
import { AuditKind, type AuditEntry } from './audit.ts';
import { ErrorCode } from './errors.ts';
import { AgentId, IsoDateTime, Sha256Hex, SnakeCase } from './primitives.ts';
import { ResourceRef } from './resource.ts';
import { Phrase } from './phrase.ts';

/**
 * Shipping the audit log to the organisation's syslog pipeline (issue 32): the target (the managed
 * policy's `auditExport` key when the organisation sets it, else the person's, from Settings), what
 * of an entry leaves the browser, and the messages between the worker and `steward-bridge host`,
 * which opens the TCP/TLS connection (a service worker cannot open sockets) and formats RFC 5424.
 * Shared by both ends; each validates what the other sends.
 */

/** Where the person's choice of target lives in chrome.storage.local (not a secret). */
export const AUDIT_EXPORT_TARGET_KEY = 'steward.audit_export_target';

const Hostname = z
  .string()
  .min(1)
  .max(253)
  .regex(
    /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$|^\[?[0-9A-Fa-f:.]+\]?$/,
    'must be a host name or an IP address, without a scheme or port',
  );

/** A syslog collector speaking RFC 6587 octet-counted TCP, with TLS (RFC 5425) when `tls`. */
export const AuditExportTarget = z
  .object({
    host: Hostname,
    port: z.int().min(1, 'must be a port number (1–65535)').max(65535, 'must be a port number (1–65535)'),
    /** RFC 5425: TLS, the server's certificate checked against the system's roots (or `ca`). */
    tls: z.boolean().default(false),
    /** PEM of a private CA the collector's certificate chains to (an organisation's own PKI). */
    ca: z.string().max(65_536).optional(),
    /** The name the certificate must carry when it differs from `host` (an IP target, say). */
    server_name: Hostname.optional(),
  })
  .strict();
export type AuditExportTarget = z.infer<typeof AuditExportTarget>;

/**
 * What of an audit entry leaves the browser: who did what to which resource, the outcome, and the
 * chain fields, so the collector can check the chain. Never `details` (page text, a rationale, what
 * was typed), tokens, receipts or inputs.
 */
export const ExportRecord = z
  .object({
    seq: z.int().nonnegative(),
    at: IsoDateTime,
    kind: AuditKind,
    agent_id: AgentId,
    action: ActionName.optional(),
    resource: ResourceRef.optional(),
    outcome: SnakeCase.optional(),
    error_code: ErrorCode.optional(),
    prev_hash: Sha256Hex,
    hash: Sha256Hex,
  })
  .strict();
export type ExportRecord = z.infer<typeof ExportRecord>;

export function toExportRecord(e: AuditEntry): ExportRecord {
  return {
    seq: e.seq,
    at: e.at,
    kind: e.kind,
    agent_id: e.agent_id,
    ...(e.action !== undefined ? { action: e.action } : {}),
    ...(e.resource !== undefined ? { resource: e.resource } : {}),
    ...(e.outcome !== undefined ? { outcome: e.outcome } : {}),
    ...(e.error_code !== undefined ? { error_code: e.error_code } : {}),
    prev_hash: e.prev_hash,
    hash: e.hash,
  };
}

/** This browser profile's chain, as collectors group lines: `b-` and 16 hex digits, random once per profile. */
export const BrowserChainId = z.string().regex(/^b-[0-9a-f]{16}$/, 'must be b- followed by 16 hex digits');

/** At most this many records go in one batch to the host (a batch is one native message, under 1 MB). */
export const EXPORT_BATCH_MAX = 500;

const BatchId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** Worker → host: send these records, in order, to the target; answer with `audit-export-result`. */
export const AuditExportBatch = z.object({
  kind: z.literal('audit-export'),
  batch: BatchId,
  chain: BrowserChainId,
  target: AuditExportTarget,
  records: z.array(ExportRecord).min(1).max(EXPORT_BATCH_MAX),
});
export type AuditExportBatch = z.infer<typeof AuditExportBatch>;

/**
 * Host → worker. `ok`: every record up to `through_seq` was written to the collector's socket and
 * the write was flushed to the kernel (TCP syslog has no application-level acknowledgement).
 * Otherwise `problem` says why in an admin's words, and nothing of the batch counts as sent.
 */
export const AuditExportResult = z.discriminatedUnion('ok', [
  z.object({ kind: z.literal('audit-export-result'), batch: BatchId, ok: z.literal(true), through_seq: z.int().nonnegative(), bytes: z.int().nonnegative() }),
  z.object({ kind: z.literal('audit-export-result'), batch: BatchId, ok: z.literal(false), problem: z.string().min(1).max(1000), problem_said: Phrase.optional() }),
]);
export type AuditExportResult = z.infer<typeof AuditExportResult>;

/** How the export stands, as Settings shows it. */
export const AuditExportStatus = z.object({
  target: AuditExportTarget.nullable(),
  /** The organisation's managed policy sets the target (`auditExport`): the person cannot change it. */
  managed: z.boolean().optional(),
  chain: BrowserChainId.optional(),
  /** Entries waiting in the outbox, and those not yet copied into it (the outbox was full). */
  pending: z.int().nonnegative(),
  waiting_in_log: z.int().nonnegative(),
  capacity: z.int().positive(),
  nearly_full: z.boolean(),
  /** The last seq the collector took. */
  sent_through: z.int().min(-1),
  last_sent_at: IsoDateTime.optional(),
  /** Why the last attempt failed (cleared by the next success). */
  problem: z.string().max(1000).optional(),
  /** `problem` as a phrase, for Settings to say in the person's language (src/protocol/phrase.ts). */
  problem_said: Phrase.optional(),
  problem_since: IsoDateTime.optional(),
  next_attempt_at: IsoDateTime.optional(),
});
export type AuditExportStatus = z.infer<typeof AuditExportStatus>;
