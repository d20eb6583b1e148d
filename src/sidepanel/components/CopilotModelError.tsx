import { t } from '../../base/i18n.ts';
import type { ModelError } from '../../protocol/copilot.ts';
import { modelErrorText } from '../lib/model-errors.ts';
import { said } from '../lib/phrases.ts';

/** The model's failure as plain sentences, with the worker's own detail and a way to Settings when the fix is there. */
export function CopilotModelError({ error, onOpenSettings }: { error: ModelError; onOpenSettings: () => void }) {
  const words = modelErrorText(error);
  const detail = said(error.message_said, error.message);
  return (
    <div class="model-error" role="alert">
      <p>
        <strong>{words.sentence}</strong> {words.todo}
      </p>
      {detail && detail !== words.sentence && <p class="note">{t('copilot_detail', detail)}</p>}
      {words.settings && (
        <button type="button" class="secondary" onClick={onOpenSettings}>
          {t('copilot_open_settings')}
        </button>
      )}
    </div>
  );
}
