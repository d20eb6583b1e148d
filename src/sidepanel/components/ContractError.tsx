import { SaidRecord } from './SaidRecord.tsx';
import { contracts } from '../contracts-store.ts';
import { saidWithRecord } from '../lib/phrases.ts';

/**
 * Why the last connect or disconnect for a site did not work: the worker's phrase in the person's
 * language, else its English (the site's own words as they are); Steward's technical account of an
 * answer that does not fit the contract one click away.
 */
export function ContractError({ origin }: { origin: string }) {
  const error = contracts.errors.value[origin];
  if (!error) return null;
  const { words, record } = saidWithRecord(error.said, error.message);
  return (
    <>
      <p class="error-text" role="alert" data-testid="contract-error" data-code={error.code}>
        {words}
      </p>
      <SaidRecord record={record} />
    </>
  );
}
