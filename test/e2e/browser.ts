import { chromium, type BrowserContext, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '..', '..', 'dist');

export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];
/** Chromium's native WebMCP: the feature is `WebMCPTesting` up to 156 and `WebMCP` from 157; Chromium ignores the name it does not know, so both go. */
export const NATIVE_WEBMCP_FLAG = '--enable-features=WebMCPTesting,WebMCP';

export interface LaunchOptions {
  /** Chromium's native WebMCP (document.modelContext); off → Steward's polyfill path. */
  nativeWebMcp: boolean;
  /** Sites Steward may observe from the start, as if the person had allowed them earlier. */
  allowSites?: string[];
}

export interface StewardBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  close(): Promise<void>;
}

/** Debian's Chromium with the built extension loaded, in the given profile directory. */
export async function launchInProfile(profile: string, options: LaunchOptions): Promise<Omit<StewardBrowser, 'close'>> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_FLAGS, ...(options.nativeWebMcp ? [NATIVE_WEBMCP_FLAG] : []), `--disable-extensions-except=${DIST}`, `--load-extension=${DIST}`],
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(serviceWorker.url()).host;
  if (options.allowSites?.length) await allowSites(serviceWorker, options.allowSites);
  return { context, serviceWorker, extensionId };
}

/** Debian's Chromium with the built extension loaded, in a fresh profile. */
export async function launchWithSteward(options: LaunchOptions): Promise<StewardBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'steward-e2e-'));
  const { context, serviceWorker, extensionId } = await launchInProfile(profile, options);
  return {
    context,
    serviceWorker,
    extensionId,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Puts sites on Steward's list of allowed sites the way an earlier session would have left it
 * (the stored record), then waits until the service worker has registered its page scripts for
 * them. Pages opened afterwards are observed from document_start.
 */
export async function allowSites(serviceWorker: Worker, urls: string[]): Promise<void> {
  const origins = [...new Set(urls.map((u) => new URL(u).origin))];
  await serviceWorker.evaluate(async (wanted) => {
    const key = 'steward.sites';
    const stored = ((await chrome.storage.local.get(key))[key] as { allowed?: string[] } | undefined)?.allowed ?? [];
    await chrome.storage.local.set({ [key]: { allowed: [...new Set([...stored, ...wanted])] } });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const scripts = await chrome.scripting.getRegisteredContentScripts();
      const matched = new Set(scripts.flatMap((s) => s.matches ?? []));
      if (scripts.length === 2 && wanted.every((o) => matched.has(`${o}/*`))) return;
      if (Date.now() > deadline) throw new Error(`Steward did not register its page scripts for ${wanted.join(', ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }, origins);
}
