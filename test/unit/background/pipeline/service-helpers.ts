// The pipeline's own fakes, re-exported for the service-worker wiring tests.
export { approvalOf, cancelRequest, harness } from '../../pipeline/fakes.ts';
export { freshFactory, openDb } from '../../storage/helpers.ts';
