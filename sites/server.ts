/**
 * Starts every demo site in this process, each on its own localhost port (so each is its own
 * origin). State lives in memory, server-side; `/__demo/state` and `/__demo/reset` expose it to tests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClinic } from './clinic/app.ts';
import { createLab } from './lab/app.ts';
import { createShop } from './shop/app.ts';
import { SITE_NAMES, type DemoSite, type SiteName } from './site.ts';

export { type SiteName } from './site.ts';

const DEFAULT_PORT_BASE = 4100;
const PORT_BASE_ENV = 'STEWARD_SITES_PORT_BASE';

/** Offsets from the port base: shop = base, clinic = base + 1, lab = base + 2. */
const PORT_OFFSETS: Record<SiteName, number> = { shop: 0, clinic: 1, lab: 2 };

const FACTORIES: Record<SiteName, () => DemoSite> = { shop: createShop, clinic: createClinic, lab: createLab };

export interface DemoSitesOptions {
  /** Interface to listen on; default 127.0.0.1 (URLs still say `localhost`). */
  host?: string;
  /** Port per site; 0 picks a free port. Defaults come from STEWARD_SITES_PORT_BASE or 4100. */
  ports?: Partial<Record<SiteName, number>>;
}

export interface RunningDemoSites {
  urls: Record<SiteName, string>;
  /** The site objects, for in-process access to state (tests may prefer `/__demo/state`). */
  sites: Record<SiteName, DemoSite>;
  stop(): Promise<void>;
}

/** Every site on a free ephemeral port (tests: no clash with a running `npm start`). */
export function freePorts(): Record<SiteName, number> {
  return Object.fromEntries(SITE_NAMES.map((name) => [name, 0])) as Record<SiteName, number>;
}

/** The port base from STEWARD_SITES_PORT_BASE, or 4100. */
export function portBase(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[PORT_BASE_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_PORT_BASE;
  const base = Number(raw);
  if (!Number.isInteger(base) || base < 1 || base + SITE_NAMES.length - 1 > 65535) {
    throw new Error(`${PORT_BASE_ENV} must be an integer port between 1 and ${65536 - SITE_NAMES.length}, got "${raw}".`);
  }
  return base;
}

function checkPort(name: string, port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Port for ${name} must be an integer 0–65535, got ${port}.`);
  return port;
}

function urlHost(host: string): string {
  if (host === '127.0.0.1' || host === '0.0.0.0' || host === '::' || host === '::1' || host === 'localhost') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      reject(err);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startDemoSites(opts: DemoSitesOptions = {}): Promise<RunningDemoSites> {
  const host = opts.host ?? '127.0.0.1';
  const base = SITE_NAMES.every((name) => opts.ports?.[name] !== undefined) ? DEFAULT_PORT_BASE : portBase();
  const servers: Server[] = [];
  const urls = {} as Record<SiteName, string>;
  const sites = {} as Record<SiteName, DemoSite>;
  try {
    for (const name of SITE_NAMES) {
      const port = checkPort(name, opts.ports?.[name] ?? base + PORT_OFFSETS[name]);
      const site = FACTORIES[name]();
      const server = createServer(site.listener);
      server.keepAliveTimeout = 5_000;
      servers.push(server);
      let actual: number;
      try {
        actual = await listen(server, port, host);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const hint = code === 'EADDRINUSE' ? ` (already in use; set ${PORT_BASE_ENV} to move all sites, or pass port 0)` : '';
        throw new Error(`Could not start the ${name} demo site on ${host}:${port}${hint}: ${(err as Error).message}`, { cause: err });
      }
      urls[name] = `http://${urlHost(host)}:${actual}`;
      sites[name] = site;
    }
  } catch (err) {
    await Promise.all(servers.map(close));
    throw err;
  }
  let stopped: Promise<void> | null = null;
  return {
    urls,
    sites,
    stop: () => (stopped ??= Promise.all(servers.map(close)).then(() => undefined)),
  };
}
