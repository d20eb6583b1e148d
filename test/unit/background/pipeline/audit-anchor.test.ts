import { fakeBrowser } from '@webext-core/fake-browser';
import { describe, expect, it } from 'vitest';
import { chromeAuditAnchor } from '../../../../src/background/pipeline/audit-anchor.ts';

describe('the audit head’s copy outside IndexedDB', () => {
  it('is kept in the local area (it survives the browser), and read back by a restarted worker', async () => {
    const head = { seq: 12, hash: 'ab'.repeat(32), mac: 'cd'.repeat(32) };
    await chromeAuditAnchor().save(head);
    expect(await fakeBrowser.storage.local.get('steward.audit_head')).toEqual({ 'steward.audit_head': head });
    expect(await fakeBrowser.storage.session.get(null)).toEqual({});
    expect(await chromeAuditAnchor().load()).toEqual(head);
  });

  it('reads nothing when no head was saved', async () => {
    expect(await chromeAuditAnchor().load()).toBeUndefined();
  });
});
