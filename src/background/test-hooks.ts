import type { RecoveryReport } from '../pipeline/recovery.ts';
import type { McpClientInfo } from '../protocol/bridge.ts';
import type { PairingService } from './mcp/pairing-service.ts';
import type { ObservationService } from './observation/service.ts';
import { pageDeadlines } from './core/page-deadlines.ts';
import { lastCaptureError } from './ports/capture-error.ts';

declare global {
  /** Set by vite.config.ts: true only in `npm run build:test`, so a production bundle has no test hooks. */
  const __STEWARD_TEST_HOOKS__: boolean;
}

/** The service worker globals end-to-end tests and benchmarks reach (no page and no content script can). */
export const TEST_HOOK_NAMES = ['stewardObservation', 'stewardPipeline', 'stewardLastCaptureError', 'stewardPairings', 'stewardReset'] as const;

export interface TestHookDeps {
  observation: ObservationService;
  /** What the pipeline's last start-up recovery did. */
  recovery: () => RecoveryReport[];
  /** MCP clients' pairing: a test asks for one as the bridge would, without a bridge. */
  pairings?: Pick<PairingService, 'request' | 'claim'>;
  /** Steward as freshly installed, these sites on its list (fresh-install.ts; passed in, so this module loads outside a browser too). */
  reset?: (sites: string[]) => Promise<void>;
}

/**
 * Installs the test hooks on the worker's global scope. Read-only, except the page deadlines a
 * test may shorten instead of waiting a minute for a stalled page, the pairing requests a test
 * opens and collects as the MCP bridge would (the person still decides in the side panel), and
 * the reset between tests (fresh-install.ts).
 */
export function installTestHooks({ observation, recovery, pairings, reset }: TestHookDeps, scope: object = globalThis): void {
  const hooks: Record<(typeof TEST_HOOK_NAMES)[number], PropertyDescriptor> = {
    stewardObservation: { value: { observeTab: observation.observeTab, queryTab: observation.queryTab } },
    // startedAt tells a test that the worker was restarted.
    stewardPipeline: { value: { startedAt: Date.now(), recovery, deadlines: pageDeadlines } },
    stewardLastCaptureError: { get: lastCaptureError },
    stewardPairings: {
      value: {
        request: (client: McpClientInfo, source = 'conn-testhook') => (pairings ? pairings.request({ client }, source) : Promise.reject(new Error('pairing is not wired'))),
        claim: (pairing_id: string, claim_secret: string) => (pairings ? pairings.claim({ pairing_id, claim_secret, wait_ms: 0 }) : Promise.reject(new Error('pairing is not wired'))),
      },
    },
    // Steward as freshly installed, with these sites on its list; the harness stops the worker next.
    stewardReset: { value: (sites: string[]) => (reset ? reset(sites) : Promise.reject(new Error('reset is not wired'))) },
  };
  Object.defineProperties(scope, hooks);
}
