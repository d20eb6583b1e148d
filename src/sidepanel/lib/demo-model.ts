/** The scripted model `npm start` configures for a demo: never to be mistaken for a language model. */
const DEMO_MODEL = 'steward-demo';
export const DEMO_MODEL_LABEL = 'Demo model — scripted replies, not a language model';

export const isDemoModel = (model: string): boolean => model.trim() === DEMO_MODEL;
