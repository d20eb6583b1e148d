import { contracts } from '../contracts-store.ts';
import { said } from '../lib/phrases.ts';

/** Why the last connect or disconnect for a site did not work: the worker's phrase in the person's language, else its English (the site's own words as they are). */
export function ContractError({ origin }: { origin: string }) {
  const error = contracts.errors.value[origin];
  if (!error) return null;
  return (
    <p class="error-text" role="alert" data-testid="contract-error" data-code={error.code}>
      {said(error.said, error.message)}
    </p>
  );
}
