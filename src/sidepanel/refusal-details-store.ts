import { signal } from '@preact/signals';

/**
 * The last refusal whose sentence leaves out the worker's English (an internal error, a request the
 * worker could not read): views print only the sentence, so its English is kept here for the one
 * disclosure the panel shows above every view (components/RefusalDetails.tsx) until dismissed.
 */
export const refusalDetails = signal<{ words: string; record: string } | undefined>(undefined);
