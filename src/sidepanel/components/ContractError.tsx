import { contracts } from '../contracts-store.ts';

/** Why the last connect or disconnect for a site did not work, in the worker's (or the site's) words. */
export function ContractError({ origin }: { origin: string }) {
  const error = contracts.errors.value[origin];
  if (!error) return null;
  return (
    <p class="error-text" role="alert" data-testid="contract-error" data-code={error.code}>
      {error.message}
    </p>
  );
}
