import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { AgentId, IsoDateTime, Origin } from '../../../src/protocol/primitives.ts';
import { ResourceScope } from '../../../src/protocol/resource.ts';
import { ScopeEntry, TokenId, TokenSecret } from '../../../src/protocol/token.ts';
import { readIfExists, removeIfExists, writePrivateFile } from './files.ts';

/** What pairing gave one MCP client, kept in `<home>/clients/<sha256(client name)>.json` (0600). */
export const Credential = z.object({
  client_name: z.string().min(1).max(120),
  agent_id: AgentId,
  token: TokenSecret,
  token_id: TokenId,
  expires_at: IsoDateTime,
  origins: z.array(Origin),
  scope: z.array(ScopeEntry),
  resource_scope: ResourceScope.optional(),
  saved_at: IsoDateTime,
});
export type Credential = z.infer<typeof Credential>;

export interface CredentialStore {
  read(clientName: string): Promise<Credential | undefined>;
  save(credential: Credential): Promise<void>;
  forget(clientName: string): Promise<void>;
}

/** The file a client's credential lives in (named by a hash: a client name is not a safe file name). */
export function credentialFile(home: string, clientName: string): string {
  return path.join(home, 'clients', `${createHash('sha256').update(clientName, 'utf8').digest('hex')}.json`);
}

export function fileCredentialStore(home: string, log: (line: string) => void): CredentialStore {
  return {
    async read(clientName) {
      const file = credentialFile(home, clientName);
      const text = await readIfExists(file);
      if (text === undefined) return undefined;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      const credential = Credential.safeParse(parsed);
      // A corrupt file (or one for another name) counts as no credential: the client pairs again.
      if (!credential.success || credential.data.client_name !== clientName) {
        log(`steward-bridge: ignoring the unreadable credential file ${file}`);
        return undefined;
      }
      return credential.data;
    },
    async save(credential) {
      await writePrivateFile(credentialFile(home, credential.client_name), `${JSON.stringify(credential, null, 2)}\n`);
    },
    async forget(clientName) {
      await removeIfExists(credentialFile(home, clientName));
    },
  };
}
