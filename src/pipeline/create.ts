import { ApprovalStore } from '../storage/approval-store.ts';
import { AuditLog, type AuditAnchor } from '../storage/audit-log.ts';
import { AuditOutbox } from '../storage/audit-outbox.ts';
import { AuditExporter, type AuditExportPorts } from './audit-export/exporter.ts';
import { openStewardDb, type StewardDb } from '../storage/db.ts';
import { IdempotencyStore } from '../storage/idempotency-store.ts';
import { JournalStore } from '../storage/journal-store.ts';
import { MemoryStore } from '../storage/memory-store.ts';
import { QuotaStore } from '../storage/quota-store.ts';
import { TokenStore } from '../storage/token-store.ts';
import { ApprovalQueue, type ApprovalSettings } from './approvals.ts';
import { systemClock, type Clock } from '../base/clock.ts';
import { MemoryResolver } from './memory-resolver.ts';
import { Pipeline } from './pipeline.ts';
import { PolicyGateway } from './policy/gateway.ts';
import { RateLimiter, type QuotaLimits } from './policy/quota.ts';
import { MemoryTaintLedger, type TaintLedger } from './taint.ts';
import type { ApprovalNotifier, PipelinePorts } from './ports.ts';
import { MemoryWrittenControls, type WrittenControls } from './written-controls.ts';
import type { Policy } from '../protocol/managed-policy.ts';

interface CreatePipelineOptions {
  db: StewardDb;
  ports: PipelinePorts;
  notifier?: ApprovalNotifier;
  clock?: Clock;
  /** High-resolution clock for the overhead timings. */
  perfNow?: () => number;
  limits?: (agentId: string) => QuotaLimits;
  approvalSettings?: Partial<ApprovalSettings>;
  idempotencyTtlMs?: number;
  /** Keeps the audit log's head outside IndexedDB (chrome.storage.local in the extension). */
  auditAnchor?: AuditAnchor;
  /** The audit export's ports (target, native link, alarms): with them the pipeline ships its audit log (src/pipeline/audit-export/). */
  auditExport?: AuditExportPorts;
  /** Which agents have been given page content; the extension keeps it in chrome.storage.local. */
  taint?: TaintLedger;
  /** Controls whose harmless-looking action wrote; the extension keeps them in chrome.storage.local. */
  written?: WrittenControls;
  /** The organisation's managed policy now; none when absent. */
  policy?: () => Policy;
}

/** Who writes the export's own entries: Steward itself. */
const STEWARD_AGENT = 'agent:steward';

/** Builds the stores on one database and the pipeline over them: what the service worker calls at start-up. */
function createPipeline(opts: CreatePipelineOptions): Pipeline {
  const clock = opts.clock ?? systemClock;
  let exporter: AuditExporter | undefined;
  // Every entry, once stored, is also copied to the export's outbox and sent (when a target is set).
  const audit = new AuditLog(opts.db, clock, opts.auditAnchor, () => exporter?.kick());
  if (opts.auditExport) {
    const { capacity, ...ports } = opts.auditExport;
    exporter = new AuditExporter({
      ...ports,
      outbox: new AuditOutbox(opts.db, capacity),
      audit: async (outcome, details) => void (await audit.append({ kind: 'export', agent_id: STEWARD_AGENT, outcome, details })),
    });
  }
  const taint = opts.taint ?? new MemoryTaintLedger();
  const tokens = new TokenStore(opts.db, clock, (e) => {
    // Taint lives as long as the agent's credential: with its last token gone, the agent is gone.
    if (e.kind === 'revoked' || e.kind === 'purged') void dropTaintWithCredential(tokens, taint, e.token.agent_id, clock);
    void audit
      .append({
        kind: 'token',
        agent_id: e.token.agent_id,
        token_id: e.token.token_id,
        outcome: e.kind,
        // The label is the name the person saw when granting (a paired MCP client's): the activity log heads the client's actions with it.
        details: { scope: e.token.scope, resource_scope: e.token.resource_scope, origins: e.token.origins, ...(e.token.label ? { label: e.token.label } : {}) },
      })
      .catch((err) => console.error('audit append failed', err));
  });
  const quotas = new QuotaStore(opts.db);
  const limiter = new RateLimiter(opts.limits, (agentId, usage) => quotas.save(agentId, usage));
  const pipeline = new Pipeline(
    {
      tokens,
      approvals: new ApprovalQueue(new ApprovalStore(opts.db), clock, opts.notifier, opts.approvalSettings),
      idempotency: new IdempotencyStore(opts.db, clock, opts.idempotencyTtlMs),
      journal: new JournalStore(opts.db, clock),
      audit,
      memory: new MemoryResolver(new MemoryStore(opts.db, clock)),
      gateway: new PolicyGateway(limiter, opts.policy),
      restore: async () => limiter.restore(await quotas.all()),
      ports: opts.ports,
      clock,
      taint,
      written: opts.written ?? new MemoryWrittenControls(),
      ...(opts.policy ? { policy: opts.policy } : {}),
    },
    opts.perfNow,
  );
  pipeline.auditExport = exporter;
  return pipeline;
}

/** Clears an agent's taint once no token of it can be used any more (revoked, expired or purged). */
async function dropTaintWithCredential(tokens: TokenStore, taint: TaintLedger, agentId: string, clock: Clock): Promise<void> {
  try {
    const now = clock();
    const live = (await tokens.list(agentId)).some((t) => t.revoked_at === undefined && Date.parse(t.expires_at) > now);
    if (!live) await taint.clear(agentId);
  } catch (error) {
    // Kept tainted: a mark that outlives its agent costs nothing, a lost one would.
    console.warn('taint: could not drop the mark of a gone credential', error);
  }
}

export interface OpenPipelineOptions extends Omit<CreatePipelineOptions, 'db'> {
  /** Opens the database; the extension's own `steward` database unless a test passes another. */
  openDb?: () => Promise<StewardDb>;
}

/** Opens the database, then builds the pipeline on it. */
export async function openPipeline({ openDb = () => openStewardDb(), ...opts }: OpenPipelineOptions): Promise<Pipeline> {
  return createPipeline({ ...opts, db: await openDb() });
}
