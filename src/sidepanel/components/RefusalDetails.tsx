import { SaidRecord } from './SaidRecord.tsx';
import { t } from '../../base/i18n.ts';
import { refusalDetails } from '../refusal-details-store.ts';

/** The last system refusal's sentence with its English one click away (views print the sentence alone), until the person dismisses it. */
export function RefusalDetails() {
  const shown = refusalDetails.value;
  if (!shown) return null;
  return (
    <div class="card refusal-details" data-testid="refusal-details">
      <p class="error-text">{shown.words}</p>
      <SaidRecord record={shown.record} />
      <button type="button" class="secondary" onClick={() => (refusalDetails.value = undefined)}>
        {t('err_refusal_details_dismiss')}
      </button>
    </div>
  );
}
