import { DEMO_MODEL_ID } from '../../protocol/copilot.ts';
/** The scripted model `npm start` configures for a demo: never to be mistaken for a language model. */
export const DEMO_MODEL_LABEL = 'Demo model — scripted replies, not a language model';

export const isDemoModel = (model: string): boolean => model.trim() === DEMO_MODEL_ID;
