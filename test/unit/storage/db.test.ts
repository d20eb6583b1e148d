import { describe, expect, it, vi } from 'vitest';
import { openStewardDb } from '../../../src/storage/db.ts';
import { DB_NAME, DB_VERSION, freshFactory } from './helpers.ts';

describe('openStewardDb', () => {
  it('creates the steward database with every store at the current version', async () => {
    const factory = freshFactory();
    const db = await openStewardDb({ factory });
    expect(db.name).toBe(DB_NAME);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([
      'agent_key',
      'approvals',
      'audit',
      'audit_export',
      'audit_outbox',
      'audit_seal',
      'idempotency',
      'journal',
      'journal_actions',
      'memory',
      'quota',
      'receipts',
      'site_grants',
      'tokens',
    ]);
    db.close();
    // Reopening an existing database keeps it (no upgrade, no data loss).
    await (await openStewardDb({ factory })).put('audit', { seq: 0 } as never);
    const again = await openStewardDb({ factory });
    expect(await again.count('audit')).toBe(1);
  });

  it('fails clearly when there is no IndexedDB', async () => {
    vi.stubGlobal('indexedDB', undefined);
    try {
      await expect(openStewardDb()).rejects.toThrow('IndexedDB is not available');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
