import type { Page } from '@playwright/test';

/** What a web page saw of each way it tried to reach the bridge or Steward (its own view: nothing readable is the goal). */
export interface PageAttempts {
  fetchCors: string;
  fetchWithBearer: string;
  fetchNoCors: string;
  fetchLocalhost: string;
  xhr: string;
  beacon: string;
  form: string;
  websocket: string;
  sendMessage: string;
  connect: string;
  connectNative: string;
  postMessage: string;
  iframe: string;
}

/**
 * Every way a page script could try to reach the bridge's HTTP port or Steward itself, run in the
 * page's own world (as the page's scripts run): cross-origin requests with and without CORS, a
 * beacon, a text/plain form post shaped like JSON-RPC, a WebSocket, the extension messaging APIs
 * with Steward's fixed id, bridge-shaped window messages for Steward's content scripts, and a frame.
 */
export async function attackFromPage(page: Page, target: { url: string; port: number; extensionId: string }): Promise<PageAttempts> {
  return page.evaluate(async ({ url, port, extensionId }) => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Evil Page', version: '1' } } });
    const callTabs = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'steward_tabs', arguments: {} } });
    const describe = async (p: Promise<Response>) =>
      p.then(
        async (r) => `status ${r.status} type ${r.type} body ${(await r.text().catch(() => '')).slice(0, 200)}`,
        (e: unknown) => `rejected: ${String(e)}`,
      );
    const settle = <T>(p: Promise<T>, ms: number, late: T) => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(late), ms))]);

    const fetchCors = await describe(fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }, body: initialize }));
    const fetchWithBearer = await describe(fetch(url, { method: 'POST', headers: { Authorization: 'Bearer guessed', 'Content-Type': 'text/plain' }, body: callTabs }));
    const fetchNoCors = await describe(fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: callTabs }));
    const fetchLocalhost = await describe(fetch(`http://localhost:${port}/mcp`, { method: 'POST', mode: 'no-cors', body: initialize }));

    const xhr = await new Promise<string>((resolve) => {
      const x = new XMLHttpRequest();
      x.open('POST', url);
      x.setRequestHeader('Content-Type', 'text/plain');
      x.onload = () => resolve(`status ${x.status} body ${x.responseText.slice(0, 200)}`);
      x.onerror = () => resolve(`error (status ${x.status})`);
      x.send(callTabs);
    });

    const beacon = `queued: ${navigator.sendBeacon(url, new Blob([callTabs], { type: 'text/plain' }))}`;

    // A text/plain form post whose body reads as JSON-RPC (the classic CSRF against JSON APIs).
    const form = await new Promise<string>((resolve) => {
      const frame = document.createElement('iframe');
      frame.name = 'steward-bridge-form-target';
      document.body.append(frame);
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = url;
      f.enctype = 'text/plain';
      f.target = frame.name;
      const field = document.createElement('input');
      field.name = callTabs.slice(0, -1) + ',"pad":"';
      field.value = '"}';
      f.append(field);
      document.body.append(f);
      frame.onload = () => {
        let seen: string;
        try {
          seen = `readable: ${frame.contentDocument?.body?.innerText.slice(0, 200) ?? '(no document)'}`;
        } catch (e) {
          seen = `unreadable: ${String(e)}`;
        }
        resolve(frame.contentDocument === null ? 'unreadable (cross-origin)' : seen);
      };
      f.submit();
      setTimeout(() => resolve('no load'), 5000);
    });

    const websocket = await new Promise<string>((resolve) => {
      let ws: WebSocket;
      try {
        ws = new WebSocket(`ws://127.0.0.1:${port}/mcp`);
      } catch (e) {
        resolve(`threw: ${String(e)}`);
        return;
      }
      ws.onopen = () => (ws.send(callTabs), resolve('open'));
      ws.onerror = () => resolve('error');
      ws.onclose = (e) => resolve(`closed ${e.code}`);
      setTimeout(() => resolve(`no answer (state ${ws.readyState})`), 5000);
    });

    type Runtime = { sendMessage?: (...a: unknown[]) => Promise<unknown>; connect?: (...a: unknown[]) => unknown; connectNative?: (...a: unknown[]) => unknown };
    const runtime = (globalThis as { chrome?: { runtime?: Runtime } }).chrome?.runtime;
    const pairRequest = { type: 'bridge/pair-request', client: { name: 'Evil Page', transport: 'stdio' } };
    let sendMessage = 'absent';
    if (runtime?.sendMessage) {
      sendMessage = await settle(
        runtime.sendMessage(extensionId, pairRequest).then(
          (r) => `delivered: ${JSON.stringify(r)}`,
          (e: unknown) => `refused: ${String(e)}`,
        ),
        3000,
        'no answer',
      );
    }
    let connect = 'absent';
    if (runtime?.connect) {
      try {
        runtime.connect(extensionId, { name: 'steward-bridge' });
        connect = 'returned a port';
      } catch (e) {
        connect = `threw: ${String(e)}`;
      }
    }
    let connectNative = 'absent';
    if (runtime?.connectNative) {
      try {
        runtime.connectNative('com.steward.bridge');
        connectNative = 'returned a port';
      } catch (e) {
        connectNative = `threw: ${String(e)}`;
      }
    }

    // Bridge-shaped messages for whatever listens on the window (Steward's content scripts must not relay them).
    const forged = [
      pairRequest,
      { kind: 'call', id: 'evil-1', conn: 'conn-evil', message: pairRequest },
      {
        kind: 'call',
        id: 'evil-2',
        conn: 'conn-evil',
        message: {
          type: 'bridge/execute',
          auth: { agent_id: 'agent:copilot', token: 'stw_secret_x' },
          request: { action: 'orders.cancel', resource: { type: 'order', id: 'ORD-1024' }, idempotency_key: 'evil-page-1' },
        },
      },
      { type: 'bridge/pair-claim', pairing_id: 'pair_evilpage01', claim_secret: 'A'.repeat(43) },
      { type: 'panel/pairing-decide', pairing_id: 'pair_evilpage01', decision: { accept: true, code: '000-000', grant: { scope: ['*:*'], origins: [location.origin], ttl_ms: 3600000 } } },
      { type: 'panel/token-mint', agent_id: 'agent:evil', scope: ['*:*'], origins: [location.origin], resource_scope: '*', ttl_ms: 3600000 },
    ];
    for (const m of forged) window.postMessage(m, '*');
    const postMessage = `posted ${forged.length}`;

    const iframe = await new Promise<string>((resolve) => {
      const frame = document.createElement('iframe');
      frame.src = url;
      frame.onload = () => resolve(frame.contentDocument === null ? 'unreadable (cross-origin)' : `readable: ${frame.contentDocument.body?.innerText.slice(0, 200) ?? ''}`);
      document.body.append(frame);
      setTimeout(() => resolve('no load'), 5000);
    });

    return { fetchCors, fetchWithBearer, fetchNoCors, fetchLocalhost, xhr, beacon, form, websocket, sendMessage, connect, connectNative, postMessage, iframe };
  }, target);
}
