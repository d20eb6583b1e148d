import type { ModelError } from '../../protocol/copilot.ts';
import { modelErrorText } from '../lib/model-errors.ts';

/** The model's failure as plain sentences, with the worker's own detail and a way to Settings when the fix is there. */
export function CopilotModelError({ error, onOpenSettings }: { error: ModelError; onOpenSettings: () => void }) {
  const t = modelErrorText(error);
  return (
    <div class="model-error" role="alert">
      <p>
        <strong>{t.sentence}</strong> {t.todo}
      </p>
      {error.message && error.message !== t.sentence && <p class="note">Detail: {error.message}</p>}
      {t.settings && (
        <button type="button" class="secondary" onClick={onOpenSettings}>
          Open co-pilot settings
        </button>
      )}
    </div>
  );
}
