import { t } from '../../base/i18n.ts';
import type { ToolRunOutcome } from '../../protocol/webmcp.ts';
import { PageErrorDetails } from '../../protocol/page-tool-error.ts';
import { SaidLine } from './SaidLine.tsx';

type RunError = Extract<ToolRunOutcome, { ok: false }>['error'];

const HEADLINE = {
  failed: 'tools_failed',
  unknown: 'tools_outcome_unknown',
} as const;

/** A run that did not give a result: Steward's reason, and the page's own words apart, marked as page text. */
export function ToolRunError({ error, name }: { error: RunError; name: string }) {
  const parsed = PageErrorDetails.safeParse(error.details);
  const details = parsed.success ? parsed.data : {};
  const pageError = details.page_error;
  return (
    <div role="alert" class="run-error">
      {details.status && <p class="error-text">{t(HEADLINE[details.status])}</p>}
      {pageError ? (
        <div>
          <div class="result-label">
            {t('tools_page_message')}
            {pageError.code ? ` (${pageError.code})` : ''}
            {pageError.truncated ? ` ${t('tools_cut_short')}` : ''}
            <span class="badge untrusted"> {t('tools_page_text_badge')}</span>
          </div>
          <pre class="result" role="region" aria-label={t('tools_error_from', name)}>
            {pageError.message}
          </pre>
        </div>
      ) : (
        // Steward's reason in the person's words from its code; what the pipeline wrote (what an agent reads) one click away.
        <SaidLine class="error-text" phrase={{ code: 'step_refused', params: { code: error.code } }} english={`${error.code}: ${error.message}`} />
      )}
      {details.action_id && <p class="note">{t('tools_recorded', details.action_id)}</p>}
    </div>
  );
}
