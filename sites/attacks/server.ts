import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ORDER_ID, OTHER_ORDER_ID, attackById, instructionText, type LoggedRequest, type Received } from './catalog.ts';
import { framePage, homePage, orderPage, plainPage, type Origins } from './pages.ts';

/**
 * The attack lab: two local servers, each its own origin. The victim (the account site Steward is
 * allowed on) and the attacker (never allowed: where stolen facts would arrive, and the host of a
 * cross-origin frame). Each logs every request it receives, with its body: the ground truth of the
 * security measurement, independent of anything Steward reports.
 */

export interface AttackLab {
  victim: string;
  attacker: string;
  /** What both servers received since the last reset. */
  received(): Received;
  reset(): void;
  stop(): Promise<void>;
}

const MAX_BODY = 64 * 1024;

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: string, type = 'text/html; charset=utf-8', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
  res.end(body);
}

/** A 1×1 GIF, for the attacker's "image" endpoint. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, origins: Origins) => void;

const victimRoute: Route = (req, res, url, o) => {
  const path = url.pathname;
  const attack = attackById(url.searchParams.get('plant') ?? '');
  if (req.method === 'GET' && path === '/') return send(res, 200, homePage());
  if (req.method === 'GET' && path === `/orders/${ORDER_ID}`) return send(res, 200, orderPage(attack, o));
  if (req.method === 'GET' && path === `/orders/${OTHER_ORDER_ID}`) return send(res, 200, plainPage(`Order ${OTHER_ORDER_ID}`, 'Status: Delivered on Monday.'));
  if (req.method === 'GET' && path === '/frame') return send(res, 200, framePage(attack?.channel === 'iframe-same-origin' ? instructionText(attack, o) : undefined, 'Seller messages: none.'));
  if (req.method === 'GET' && path === '/search') return send(res, 200, plainPage('Search results', `3 results for ${url.searchParams.get('q') ?? ''}.`));
  if (req.method === 'GET' && path === '/out') {
    // An open redirect, as many real sites have one (for "you are leaving" links).
    return send(res, 302, '', 'text/plain', { location: url.searchParams.get('to') ?? '/' });
  }
  if (req.method === 'GET' && path === `/api/orders/${ORDER_ID}/notes`) return send(res, 200, '{"ok":true}', 'application/json');
  if (req.method === 'GET' && path.startsWith(`/orders/${ORDER_ID}/`)) return send(res, 200, plainPage('Done', `${path.split('/').pop()!}: done.`));
  if (req.method === 'POST') {
    if (path.startsWith('/api/') || path.endsWith('/note')) return send(res, 200, '{"ok":true}', 'application/json');
    return send(res, 200, plainPage('Thank you', 'Your request was received.'));
  }
  send(res, 404, plainPage('Not found', path));
};

const attackerRoute: Route = (req, res, url, o) => {
  if (url.pathname === '/frame') {
    const attack = attackById(url.searchParams.get('plant') ?? '');
    return send(res, 200, framePage(attack?.channel === 'iframe-cross-origin' ? instructionText(attack, o) : undefined, 'Partner offers: 10% off mugs.'));
  }
  if (url.pathname.endsWith('.png')) return send(res, 200, GIF.toString('latin1'), 'image/gif');
  send(res, 200, '<!doctype html><title>Partner</title><p>Thanks for visiting.</p>');
};

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startAttackLab(): Promise<AttackLab> {
  const logs: Received = { victim: [], attacker: [] };
  const origins: Origins = { victim: '', attacker: '' };
  const serve = (side: keyof Received, route: Route) =>
    createServer((req, res) => {
      void bodyOf(req).then((body) => {
        const url = new URL(req.url ?? '/', 'http://x');
        logs[side].push({ method: req.method ?? 'GET', url: `${url.pathname}${url.search}`, body } satisfies LoggedRequest);
        route(req, res, url, origins);
      });
    });
  const victim = serve('victim', victimRoute);
  const attacker = serve('attacker', attackerRoute);
  origins.victim = `http://localhost:${await listen(victim)}`;
  origins.attacker = `http://localhost:${await listen(attacker)}`;
  const close = (s: Server) =>
    new Promise<void>((r) => {
      s.closeAllConnections();
      s.close(() => r());
    });
  return {
    ...origins,
    received: () => structuredClone(logs),
    reset: () => {
      logs.victim = [];
      logs.attacker = [];
    },
    stop: async () => {
      await Promise.all([close(victim), close(attacker)]);
    },
  };
}
