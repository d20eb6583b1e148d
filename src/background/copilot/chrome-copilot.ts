import { checkedModelStatus, createModel, modelStatus, type ModelDeps } from '../../agent/models/create-model.ts';
import { hexOf } from '../../base/hash.ts';
import { originOf } from '../../base/origin.ts';
import { readSettings, SETTINGS_KEY } from '../../protocol/settings.ts';
import { originPattern } from '../../protocol/site-access.ts';
import { browser } from '../core/browser.ts';
import { KeepAlive } from './keep-alive.ts';
import { ModelKeyStore } from './model-key.ts';
import { RunManager, type RunManagerDeps } from './run-manager.ts';
import { RunStore } from './run-store.ts';

/** The co-pilot's run manager bound to Chrome: storage, tabs, the model over `fetch`, and the pipeline's pieces the composition root (src/background/compose.ts) passes in. */

type Given = Pick<RunManagerDeps, 'pipeline' | 'sessionFor' | 'taint' | 'observeTab' | 'tabStatus' | 'push' | 'policy'>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `fetch` to the model's server. Steward holds host access only where Chrome gave it (the panel
 * asks when the person saves the endpoint); a server it was not given answers nothing a page may
 * not read, which `fetch` reports as a bare network failure: that case is named.
 */
async function modelFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(input, init);
  } catch (error) {
    const origin = originOf(input instanceof Request ? input.url : String(input));
    const granted = origin ? await browser.permissions.contains({ origins: [originPattern(origin)] }).catch(() => true) : true;
    if (!granted) throw new TypeError(`Chrome has not given Steward access to ${origin}; save the co-pilot settings in the side panel and allow it`);
    throw error;
  }
}

export function createChromeCopilot(given: Given): RunManager {
  const modelDeps = (): ModelDeps => ({ fetch: modelFetch, promptApi: (globalThis as { LanguageModel?: unknown }).LanguageModel });
  return new RunManager({
    ...given,
    tabExists: (tabId) =>
      browser.tabs.get(tabId).then(
        () => true,
        () => false,
      ),
    settings: async () => readSettings((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY]).copilot,
    models: {
      create: (config) => createModel(config, modelDeps()),
      status: (config, hasKey) => modelStatus(config, hasKey, modelDeps()),
      check: (config) => checkedModelStatus(config, modelDeps()),
    },
    keys: new ModelKeyStore(),
    store: new RunStore(),
    keepAlive: new KeepAlive(() => browser.runtime.getPlatformInfo()),
    newRunId: () => `run-${hexOf(crypto.getRandomValues(new Uint8Array(8)))}`,
    clock: () => Date.now(),
    sleep,
  });
}
