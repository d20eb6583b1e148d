/**
 * Idempotency per agent key + Idempotency-Key: the first stored response (status, headers, bytes)
 * is answered again for the same body; another body under the key is a conflict; a key whose
 * first request is still running answers "in progress".
 */

/** Bound on remembered keys (oldest first out). */
const MAX_ENTRIES = 10_000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type Entry = { body_hash: string; state: 'running' } | { body_hash: string; state: 'done'; response: StoredResponse };

export type Claim = { kind: 'new'; finish: (response: StoredResponse) => void; abandon: () => void } | { kind: 'replay'; response: StoredResponse } | { kind: 'conflict' } | { kind: 'running' };

export class IdempotencyStore {
  private entries = new Map<string, Entry>();

  reset(): void {
    this.entries.clear();
  }

  /** Keys whose first request is still running (for /__demo/state). */
  running(): string[] {
    return [...this.entries].filter(([, e]) => e.state === 'running').map(([k]) => k);
  }

  claim(keyThumbprint: string, idempotencyKey: string, bodyHash: string): Claim {
    const key = `${keyThumbprint} ${idempotencyKey}`;
    const entry = this.entries.get(key);
    if (entry) {
      if (entry.body_hash !== bodyHash) return { kind: 'conflict' };
      return entry.state === 'running' ? { kind: 'running' } : { kind: 'replay', response: entry.response };
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    const mine: Entry = { body_hash: bodyHash, state: 'running' };
    this.entries.set(key, mine);
    // A reset meanwhile dropped the entry: then nothing is stored.
    const current = (): boolean => this.entries.get(key) === mine;
    return {
      kind: 'new',
      finish: (response) => {
        if (current()) this.entries.set(key, { body_hash: bodyHash, state: 'done', response });
      },
      abandon: () => {
        if (current()) this.entries.delete(key);
      },
    };
  }
}
