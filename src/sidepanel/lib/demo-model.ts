import { t } from '../../base/i18n.ts';
import { DEMO_MODEL_ID } from '../../protocol/copilot.ts';
/** The scripted model `npm start` configures for a demo: never to be mistaken for a language model. */
export const demoModelLabel = (): string => t('copilot_demo_model');

export const isDemoModel = (model: string): boolean => model.trim() === DEMO_MODEL_ID;
