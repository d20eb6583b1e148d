import { signal } from '@preact/signals';
import { t } from '../base/i18n.ts';
import type { CopilotRun } from '../protocol/copilot.ts';
import { copilotRuns, subscribe } from './background-client.ts';
import { upsertRun } from './lib/copilot-run.ts';

/**
 * The co-pilot runs the panel knows of, newest first: loaded from the worker, then kept live by
 * its `copilot/run-changed` pushes (reloaded after the worker restarts). The runs live in the
 * worker; closing the panel only stops watching them.
 */
export const copilotRunList = signal<CopilotRun[]>([]);
export const copilotError = signal('');

async function reloadRuns(): Promise<void> {
  try {
    copilotRunList.value = (await copilotRuns()).runs;
    copilotError.value = '';
  } catch (error) {
    copilotError.value = t('copilot_load_failed', (error as Error).message);
  }
}

/** Takes a run the worker answered with (start, pause…) without waiting for its push. */
export function rememberRun(run: CopilotRun): void {
  copilotRunList.value = upsertRun(copilotRunList.value, run);
}

export function trackCopilot(): void {
  void reloadRuns();
  subscribe((m) => {
    if (m.type === 'copilot/run-changed') rememberRun(m.run);
    else if (m.type === 'panel/reconnected') void reloadRuns();
  });
}
