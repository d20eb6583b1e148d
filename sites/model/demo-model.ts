import { DEMO_MODEL_ID } from '../../src/protocol/copilot.ts';
import { demoReply } from './demo-policy.ts';
import { startScriptedModel, type ScriptedModel } from './scripted-server.ts';

/**
 * The demo model `npm start` runs: an OpenAI-compatible server whose every reply comes from the
 * rule-based demo policy, not from a language model. Configure it as model `steward-demo`.
 */
export const DEMO_MODEL = DEMO_MODEL_ID;

export async function startDemoModel(opts: { host?: string; port?: number } = {}): Promise<ScriptedModel> {
  const model = await startScriptedModel({ ...opts, modelId: DEMO_MODEL });
  model.fallback((request) => demoReply(request.messages));
  return model;
}
