import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import { preparePromptApi, promptApiAvailability, type Availability } from '../prompt-api.ts';
import { promptApiErrorWords } from '../lib/prompt-api-words.ts';

/** What Chrome's answer means for the person, one sentence per availability. */
const says = (availability: Availability): string => t(`copilot_prompt_${availability}`);

/** Chrome's on-device model: its availability, and its download, started by the person's click (Chrome requires that gesture). */
export function PromptApiPrepare() {
  const [availability, setAvailability] = useState<Availability | undefined>(undefined);
  const [progress, setProgress] = useState<number | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    promptApiAvailability().then(setAvailability, (e: unknown) => setError(t('err_prompt_api_asking', promptApiErrorWords(e))));
  }, []);

  const prepare = async () => {
    setError('');
    setProgress(0);
    try {
      setAvailability(await preparePromptApi(setProgress));
    } catch (e) {
      setError(t('copilot_prompt_failed', promptApiErrorWords(e)));
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <div class="field">
      <p class="note" role="status">
        {availability ? says(availability) : t('copilot_prompt_asking')}
      </p>
      {(availability === 'downloadable' || availability === 'downloading') && (
        <button type="button" onClick={() => void prepare()} disabled={progress !== undefined}>
          {t('copilot_prepare')}
        </button>
      )}
      {progress !== undefined && <progress max={1} value={progress} aria-label={t('copilot_prompt_downloading_label')} />}
      {error && (
        <p class="error-text" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
