import { createModel, modelStatus, type ModelDeps } from '../../agent/models/create-model.ts';
import { hexOf } from '../../base/hash.ts';
import { readSettings, SETTINGS_KEY } from '../../protocol/settings.ts';
import { browser } from '../browser.ts';
import { KeepAlive } from './keep-alive.ts';
import { ModelKeyStore } from './model-key.ts';
import { RunManager, type RunManagerDeps } from './run-manager.ts';
import { RunStore } from './run-store.ts';

/** The co-pilot's run manager bound to Chrome: storage, tabs, the model over `fetch`, and the pipeline's pieces wiring.ts passes in. */

type Given = Pick<RunManagerDeps, 'pipeline' | 'sessionFor' | 'taint' | 'observeTab' | 'tabStatus' | 'push'>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createChromeCopilot(given: Given): RunManager {
  const modelDeps = (): ModelDeps => ({ fetch: (input, init) => fetch(input, init), promptApi: (globalThis as { LanguageModel?: unknown }).LanguageModel });
  return new RunManager({
    ...given,
    tabExists: (tabId) =>
      browser.tabs.get(tabId).then(
        () => true,
        () => false,
      ),
    settings: async () => readSettings((await browser.storage.local.get(SETTINGS_KEY))[SETTINGS_KEY]).copilot,
    models: { create: (config) => createModel(config, modelDeps()), status: (config, hasKey) => modelStatus(config, hasKey, modelDeps()) },
    keys: new ModelKeyStore(),
    store: new RunStore(),
    keepAlive: new KeepAlive(() => browser.runtime.getPlatformInfo()),
    newRunId: () => `run-${hexOf(crypto.getRandomValues(new Uint8Array(8)))}`,
    clock: () => Date.now(),
    sleep,
  });
}
