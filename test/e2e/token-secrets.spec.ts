import type { Worker } from '@playwright/test';
import { test, expect } from '../harness/fixtures.ts';
import { SHOP_ORDER, cancelOrder, shopState, shopWithToken, showView, submitNow } from '../harness/panel-helpers.ts';
import { control, data, submit } from '../harness/pipeline-helpers.ts';

/**
 * A token's id is public (records, audit log, panel); only the secret shown once at minting acts.
 * A hostile agent that got hold of a copy of Steward's IndexedDB and an exported audit log tries
 * every string in them as its token: none works, and nothing reaches the shop.
 */

/** Every store of the service worker's database, read as a copy would be (all records, all stores). */
async function copyOfDatabase(sw: Worker): Promise<Record<string, unknown[]>> {
  return sw.evaluate(
    () =>
      new Promise<Record<string, unknown[]>>((resolve, reject) => {
        const open = indexedDB.open('steward');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames];
          const tx = db.transaction(names, 'readonly');
          const out: Record<string, unknown[]> = {};
          for (const name of names) {
            const req = tx.objectStore(name).getAll();
            req.onsuccess = () => (out[name] = req.result);
          }
          tx.oncomplete = () => (db.close(), resolve(out));
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** Every string in a value, keys included, and every whitespace-separated piece of them. */
function strings(value: unknown, out = new Set<string>()): Set<string> {
  const add = (s: string) => {
    out.add(s);
    for (const piece of s.split(/[\s"]+/)) if (piece) out.add(piece);
  };
  if (typeof value === 'string') add(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      add(k);
      strings(v, out);
    }
  }
  return out;
}

test('the secret is shown once; a copied database or audit export holds no working token', async ({ steward, sites, openPanel, tabIdOf }) => {
  const { panel, tabId, token: secret, token_id } = await shopWithToken({ steward, sites, openPanel, tabIdOf });

  // Shown once, with the warning; gone after "Done", and never in the list or after a reload.
  const shown = panel.getByRole('region', { name: `Secret for ${token_id}` });
  await expect(shown).toContainText('Copy it now, it will not be shown again');
  await shown.getByRole('button', { name: 'Done, hide it' }).click();
  await expect(shown).toHaveCount(0);
  await expect(panel.getByRole('article', { name: new RegExp(`^${token_id} active`) })).toBeVisible();
  expect(await panel.content()).not.toContain(secret);
  await panel.reload();
  await showView(panel, 'Tokens');
  await expect(panel.getByRole('article', { name: new RegExp(`^${token_id} active`) })).toBeVisible();
  expect(await panel.content()).not.toContain(secret);

  // Some history under the token, so the records hold its id in every place they can.
  const refused = await submitNow(panel, tabId, secret, { action: 'orders.pay', resource: { type: 'order', id: SHOP_ORDER }, idempotency_key: 'secret-history' });
  expect(refused.data!.result).toMatchObject({ error: { code: 'SCOPE_DENIED' } });

  // What a hostile agent could copy: every store, the audit export, the panel's token list.
  const copy = await copyOfDatabase(steward.serviceWorker);
  const exported = (await data<{ jsonl: string }>(control(panel, { type: 'panel/audit-export' }))).jsonl;
  const listed = await data(control(panel, { type: 'panel/tokens' }));
  const all = JSON.stringify([copy, exported, listed]);
  expect(all).not.toContain(secret);
  expect(all).toContain(token_id);
  expect((copy.tokens as Array<{ token_id: string; secret_hash?: string }>).map((t) => [t.token_id, typeof t.secret_hash])).toEqual([[token_id, 'string']]);
  const candidates = [
    ...strings([
      copy,
      exported
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown),
      listed,
    ]),
  ];
  expect(candidates).toContain(token_id);
  expect(candidates.length).toBeGreaterThan(50);

  // Each one presented as the token, for a real action: none gets past the token check.
  const before = await shopState(sites.urls.shop);
  const codes = await panel.evaluate(
    async ({ tabId, candidates }) => {
      const out: Record<string, number> = {};
      for (const [i, token] of candidates.entries()) {
        const request = { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, input: { reason: 'other' }, idempotency_key: `hostile-${i}` };
        const reply = (await chrome.runtime.sendMessage({ type: 'agent/submit', agent_id: 'agent:copilot', token, tabId, wait_for_approval: false, request })) as {
          ok: boolean;
          data?: { result: { error?: { code: string } } };
          error?: { code: string };
        };
        const code = reply.ok ? (reply.data?.result.error?.code ?? 'SUCCESS') : `message:${reply.error?.code}`;
        out[code] = (out[code] ?? 0) + 1;
      }
      return out;
    },
    { tabId, candidates },
  );
  // Over-long strings are refused as a malformed message; everything else is TOKEN_INVALID.
  expect(Object.keys(codes).filter((c) => c !== 'TOKEN_INVALID' && c !== 'message:INVALID_MESSAGE')).toEqual([]);
  expect(codes.TOKEN_INVALID).toBeGreaterThan(50);
  expect((await data<{ pending: unknown[] }>(control(panel, { type: 'panel/approvals' }))).pending).toHaveLength(0);
  expect((await shopState(sites.urls.shop)).counters[SHOP_ORDER]).toEqual(before.counters[SHOP_ORDER]);
  // Each refusal is audited, naming no token: none of them authenticated as one.
  const denials = (await data<{ entries: Array<{ idempotency_key?: string; kind: string; error_code?: string; token_id?: string }> }>(control(panel, { type: 'panel/audit' }))).entries.filter((e) =>
    e.idempotency_key?.startsWith('hostile-'),
  );
  expect(denials.length).toBe(codes.TOKEN_INVALID);
  for (const e of denials) {
    expect(e).toMatchObject({ kind: 'denial', error_code: 'TOKEN_INVALID' });
    expect(e.token_id).toBeUndefined();
  }

  // The secret itself works: the cancel gets past the token and waits for the person.
  const real = (await data(submit(panel, { token: secret, tabId, wait_for_approval: false, request: { ...cancelOrder('secret-works') } }))).result;
  expect(real).toMatchObject({ error: { code: 'APPROVAL_REQUIRED' } });
});
