import { chromium, type BrowserContext, type Worker } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const DIST = join(import.meta.dirname, '..', '..', 'dist');

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface LaunchOptions {
  /** Chromium's native WebMCP (document.modelContext); off → Steward's polyfill path. */
  nativeWebMcp: boolean;
}

export interface SteWardBrowser {
  context: BrowserContext;
  serviceWorker: Worker;
  extensionId: string;
  close(): Promise<void>;
}

/** Debian's Chromium with the built extension loaded, in a fresh profile. */
export async function launchWithSteward(options: LaunchOptions): Promise<SteWardBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'steward-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      ...CHROMIUM_FLAGS,
      ...(options.nativeWebMcp ? ['--enable-features=WebMCPTesting'] : []),
      `--disable-extensions-except=${DIST}`,
      `--load-extension=${DIST}`,
    ],
  });
  const serviceWorker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(serviceWorker.url()).host;
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
