import { useEffect, useState } from 'preact/hooks';
import type { ModelStatus } from '../protocol/copilot.ts';
import { checkModel, modelStatus } from './background-client.ts';
import { settings } from './settings.ts';

/**
 * The co-pilot model's status from the worker (ready, or why not), asked again whenever the
 * settings change. With `check`, the worker calls the endpoint: "ready" then means it answered.
 */
export function useModelStatus(opts: { check?: boolean } = {}): { status: ModelStatus | undefined; error: string; reload: () => void } {
  const [status, setStatus] = useState<ModelStatus | undefined>(undefined);
  const [error, setError] = useState('');
  const [generation, setGeneration] = useState(0);
  const copilot = settings.value.copilot;
  useEffect(() => {
    let alive = true;
    (opts.check ? checkModel() : modelStatus()).then(
      (s) => alive && (setStatus(s), setError('')),
      (e: Error) => alive && (setStatus(undefined), setError(e.message)),
    );
    return () => {
      alive = false;
    };
  }, [copilot, generation, opts.check]);
  return { status, error, reload: () => setGeneration((g) => g + 1) };
}
