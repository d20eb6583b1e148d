import { useEffect, useState } from 'preact/hooks';
import { preparePromptApi, promptApiAvailability, type Availability } from '../prompt-api.ts';

const SAYS: Record<Availability, string> = {
  available: 'Chrome’s built-in model is ready on this device.',
  downloadable: 'Chrome’s built-in model must be downloaded first: press Prepare.',
  downloading: 'Chrome is downloading its built-in model: press Prepare to follow it.',
  unavailable: 'Chrome’s built-in model is not available in this browser or on this device. Choose another provider.',
};

/** Chrome's on-device model: its availability, and its download, started by the person's click (Chrome requires that gesture). */
export function PromptApiPrepare() {
  const [availability, setAvailability] = useState<Availability | undefined>(undefined);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    promptApiAvailability().then(setAvailability, (e: Error) => setError(e.message));
  }, []);

  const prepare = async () => {
    setError('');
    setProgress(0);
    try {
      setAvailability(await preparePromptApi(setProgress));
    } catch (e) {
      setError(`Chrome could not prepare its model: ${(e as Error).message}`);
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <div class="field">
      <p class="note" role="status">
        {availability ? SAYS[availability] : 'Asking Chrome about its built-in model…'}
      </p>
      {(availability === 'downloadable' || availability === 'downloading') && (
        <button type="button" onClick={() => void prepare()} disabled={progress !== undefined}>
          Prepare
        </button>
      )}
      {progress !== undefined && <progress max={1} value={progress} aria-label="Downloading Chrome’s built-in model" />}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
