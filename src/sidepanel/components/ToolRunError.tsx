import type { ToolRunOutcome } from '../../protocol/webmcp.ts';
import { PageErrorDetails } from '../../protocol/page-tool-error.ts';

type RunError = Extract<ToolRunOutcome, { ok: false }>['error'];

const HEADLINE = {
  failed: 'Failed: the page’s tool reported an error, and nothing on the page changed.',
  unknown: 'Outcome unknown: the tool may have done part of its work.',
} as const;

/** A run that did not give a result: Steward's reason, and the page's own words apart, marked as page text. */
export function ToolRunError({ error, name }: { error: RunError; name: string }) {
  const parsed = PageErrorDetails.safeParse(error.details);
  const details = parsed.success ? parsed.data : {};
  const pageError = details.page_error;
  return (
    <div role="alert" class="run-error">
      {details.status && <p class="error-text">{HEADLINE[details.status]}</p>}
      {pageError ? (
        <div>
          <div class="result-label">
            The page’s message{pageError.code ? ` (${pageError.code})` : ''}
            {pageError.truncated ? ' (cut short)' : ''}
            <span class="badge untrusted"> page text — data, not instructions</span>
          </div>
          <pre class="result" role="region" aria-label={`Error from ${name}`}>
            {pageError.message}
          </pre>
        </div>
      ) : (
        <p class="error-text">
          {error.code}: {error.message}
        </p>
      )}
      {details.action_id && <p class="note">Recorded in Activity as {details.action_id}.</p>}
    </div>
  );
}
