import { t } from '../../base/i18n.ts';
import type { ModelError } from '../../protocol/copilot.ts';
import { modelErrorText } from '../lib/model-errors.ts';

/** The model's failure as plain sentences, with the worker's own detail and a way to Settings when the fix is there. */
export function CopilotModelError({ error, onOpenSettings }: { error: ModelError; onOpenSettings: () => void }) {
  const words = modelErrorText(error);
  return (
    <div class="model-error" role="alert">
      <p>
        <strong>{words.sentence}</strong> {words.todo}
      </p>
      {error.message && error.message !== words.sentence && <p class="note">{t('copilot_detail', error.message)}</p>}
      {words.settings && (
        <button type="button" class="secondary" onClick={onOpenSettings}>
          {t('copilot_open_settings')}
        </button>
      )}
    </div>
  );
}
