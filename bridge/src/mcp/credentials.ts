import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ClaimSecret, PairingCode, PairingId } from '../../../src/protocol/bridge.ts';
import { AgentId, IsoDateTime, Origin } from '../../../src/protocol/primitives.ts';
import { ResourceScope } from '../../../src/protocol/resource.ts';
import { ScopeEntry, TokenId, TokenSecret } from '../../../src/protocol/token.ts';
import { readIfExists, removeIfExists, writePrivateFile } from './files.ts';

/**
 * Where one MCP client's pairing is kept: a credential the bridge writes when the person pairs the
 * client and that the client presents on every later connection by naming its file on the
 * bridge's launch line (`serve --credential FILE`). The pairing is bound to that secret, never to
 * the name a client gives itself: a program that starts the bridge without the file pairs on its
 * own, whatever it calls itself.
 */

const ClientName = z.string().min(1).max(120);

/** A request the person has not decided yet: what collects it (the claim secret) and the code the client shows. */
const PendingState = z.object({
  status: z.literal('pending'),
  client_name: ClientName,
  pairing_id: PairingId,
  claim_secret: ClaimSecret,
  code: PairingCode,
  expires_at: IsoDateTime,
  saved_at: IsoDateTime,
});

/** What pairing gave the client: its own Steward token. */
const PairedState = z.object({
  status: z.literal('paired'),
  client_name: ClientName,
  agent_id: AgentId,
  token: TokenSecret,
  token_id: TokenId,
  expires_at: IsoDateTime,
  origins: z.array(Origin),
  scope: z.array(ScopeEntry),
  resource_scope: ResourceScope.optional(),
  saved_at: IsoDateTime,
});

const SlotState = z.discriminatedUnion('status', [PendingState, PairedState]);
type SlotState = z.infer<typeof SlotState>;
export type PendingState = z.infer<typeof PendingState>;

export interface ClientSlot {
  /** Where it is kept, in words for logs and messages. */
  readonly where: string;
  /** Whether a pending request is kept beyond this process (a one-shot client's next run, or `steward-bridge pair`, collects it). */
  readonly keepsPending: boolean;
  read(): Promise<SlotState | undefined>;
  write(state: SlotState): Promise<void>;
  clear(): Promise<void>;
}

/** A pairing that lasts as long as this process: a stdio client whose launch line names no credential file. */
export function memorySlot(): ClientSlot {
  let state: SlotState | undefined;
  return {
    where: 'this bridge process only (no credential file on its launch line)',
    keepsPending: false,
    read: () => Promise.resolve(state),
    write: (s) => Promise.resolve(void (state = s)),
    clear: () => Promise.resolve(void (state = undefined)),
  };
}

/** Whether a file may hold a credential: a regular file of this user that nobody else can read or write (as ssh treats its keys). */
async function privateEnough(file: string): Promise<boolean> {
  const s = await stat(file);
  return s.isFile() && (s.mode & 0o077) === 0 && (typeof process.getuid !== 'function' || s.uid === process.getuid());
}

/**
 * A credential file (0600, written atomically). `keepsPending`: the pending request is written
 * there too; otherwise it stays in memory and only the token is kept (the HTTP server, which lives
 * on between its clients' calls).
 */
export function fileSlot(file: string, log: (line: string) => void, options: { keepsPending: boolean }): ClientSlot {
  let pendingInMemory: SlotState | undefined;
  return {
    where: file,
    keepsPending: options.keepsPending,
    async read() {
      if (pendingInMemory) return pendingInMemory;
      const text = await readIfExists(file);
      if (text === undefined) return undefined;
      if (!(await privateEnough(file))) {
        log(`steward-bridge: ignoring the credential file ${file}: others may read or change it (it must be this user's, mode 0600); pairing again replaces it`);
        return undefined;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const state = SlotState.safeParse(parsed);
      // A corrupt file counts as no credential: the client pairs again (and the new one replaces it).
      if (!state.success) {
        log(`steward-bridge: ignoring the unreadable credential file ${file}`);
        return undefined;
      }
      return state.data;
    },
    async write(state) {
      if (state.status === 'pending' && !options.keepsPending) {
        pendingInMemory = state;
        return;
      }
      pendingInMemory = undefined;
      await writePrivateFile(file, `${JSON.stringify(state, null, 2)}\n`);
    },
    async clear() {
      pendingInMemory = undefined;
      await removeIfExists(file);
    },
  };
}

/** The file an HTTP client's token lives in: `<home>/clients/<sha256(identity)>.json`, identity as server.ts identityOf (its bearer and name). */
export function httpCredentialFile(home: string, identity: string): string {
  return path.join(home, 'clients', `${createHash('sha256').update(identity, 'utf8').digest('hex')}.json`);
}
