import { describe, expect, it } from 'vitest';
import { createModel, modelStatus } from '../../../../src/agent/models/create-model.ts';
import { ModelFailure } from '../../../../src/agent/models/model.ts';
import type { ChatMessage } from '../../../../src/agent/ports.ts';

/** Chrome's `LanguageModel`, scripted: it is the model, the one thing tests may fake. */
function languageModel(availability: string, answer: (text: string, options: { responseConstraint?: unknown; signal?: AbortSignal }) => Promise<string>) {
  const log: { created: unknown[]; prompted: Array<{ text: string; constraint: unknown }>; destroyed: number } = { created: [], prompted: [], destroyed: 0 };
  const api = {
    availability: () => Promise.resolve(availability),
    create: (options: unknown) => {
      log.created.push(options);
      return Promise.resolve({
        prompt: (text: string, options: { responseConstraint?: unknown; signal?: AbortSignal }) => {
          log.prompted.push({ text, constraint: options.responseConstraint });
          return answer(text, options);
        },
        destroy: () => void log.destroyed++,
      });
    },
  };
  return { api, log };
}

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are the co-pilot.' },
  { role: 'user', content: 'Goal (from the person): cancel order ORD-1024' },
];
const STEP = JSON.stringify({ kind: 'ask_person', thought: 'Unsure.', question: 'Which order?' });
const config = { provider: 'prompt-api' as const, endpoint: '', model: '' };

async function failure(p: Promise<unknown>): Promise<ModelFailure> {
  const e = await p.catch((err: unknown) => err);
  expect(e).toBeInstanceOf(ModelFailure);
  return e as ModelFailure;
}

describe("Chrome's Prompt API", () => {
  it('prompts a session started with the system text, constrained by the step schema', async () => {
    const { api, log } = languageModel('available', () => Promise.resolve(STEP));
    const model = createModel(config, { fetch, promptApi: api });
    expect(model.label).toBe('Chrome built-in model');
    expect(await model.complete(MESSAGES)).toBe(STEP);
    expect(log.created).toEqual([expect.objectContaining({ initialPrompts: [MESSAGES[0]], expectedOutputs: [{ type: 'text', languages: ['en'] }] })]);
    expect(log.prompted[0]!.text).toBe(MESSAGES[1]!.content);
    expect(JSON.stringify(log.prompted[0]!.constraint)).toContain('ask_person');
    expect(log.destroyed).toBe(1);
  });

  it('says plainly when there is no Prompt API, or its model is unavailable or needs a click', async () => {
    expect((await failure(createModel(config, { fetch }).complete(MESSAGES))).error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('no built-in Prompt API') as string });
    const unavailable = languageModel('unavailable', () => Promise.resolve(STEP)).api;
    expect((await failure(createModel(config, { fetch, promptApi: unavailable }).complete(MESSAGES))).error.code).toBe('unavailable');
    const downloadable = languageModel('downloadable', () => Promise.resolve(STEP));
    const f = await failure(createModel(config, { fetch, promptApi: downloadable.api }).complete(MESSAGES));
    expect(f.error).toMatchObject({ code: 'unavailable', message: expect.stringContaining('Click Prepare in Settings → Co-pilot') as string });
    expect(downloadable.log.created).toEqual([]);
  });

  it('a model that never answers is a timeout; a stop is an AbortError', async () => {
    const { api } = languageModel('available', (_, o) => new Promise((_, reject) => o.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))));
    const model = createModel(config, { fetch, promptApi: api, timeoutMs: 100 });
    expect((await failure(model.complete(MESSAGES))).error.code).toBe('timeout');
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 20);
    const e = await createModel(config, { fetch, promptApi: api, timeoutMs: 5000 })
      .complete(MESSAGES, stop.signal)
      .catch((err: unknown) => err);
    expect(e).toMatchObject({ name: 'AbortError' });
  });
});

describe('modelStatus', () => {
  const openai = { provider: 'openai' as const, endpoint: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };

  it('is ready for a configured model, and names it', async () => {
    expect(await modelStatus(openai, true, { fetch })).toEqual({
      provider: 'openai',
      model_label: 'gpt-4o-mini at api.openai.com',
      model_label_said: { code: 'model_label_at', params: { model: 'gpt-4o-mini', host: 'api.openai.com' } },
      has_key: true,
      ready: true,
    });
    expect(await modelStatus({ ...openai, endpoint: 'http://localhost:11434/v1', model: 'llama3.1:8b' }, false, { fetch })).toMatchObject({ ready: true, has_key: false });
    expect(await modelStatus({ ...openai, endpoint: 'http://127.0.0.1:8790/v1', model: 'steward-demo' }, false, { fetch })).toMatchObject({ ready: true, model_label: 'Demo model (scripted)' });
    expect(await modelStatus(config, false, { fetch, promptApi: languageModel('available', () => Promise.resolve('')).api })).toMatchObject({ ready: true, model_label: 'Chrome built-in model' });
  });

  it('says in a sentence what is missing', async () => {
    expect(await modelStatus({ ...openai, endpoint: '' }, false, { fetch })).toMatchObject({ ready: false, detail: expect.stringMatching(/^Enter the endpoint/) as string });
    expect(await modelStatus({ ...openai, model: '' }, true, { fetch })).toMatchObject({ ready: false, detail: expect.stringMatching(/name of the model/) as string });
    expect(await modelStatus(openai, false, { fetch })).toMatchObject({ ready: false, detail: 'api.openai.com needs an API key: enter it in Settings → Co-pilot.' });
    expect(await modelStatus({ provider: 'anthropic', endpoint: '', model: 'claude-sonnet-4-5' }, false, { fetch })).toMatchObject({
      ready: false,
      detail: expect.stringContaining('api.anthropic.com needs an API key') as string,
    });
    expect(await modelStatus(config, false, { fetch, promptApi: languageModel('downloadable', () => Promise.resolve('')).api })).toMatchObject({
      ready: false,
      detail: expect.stringContaining('Prepare') as string,
    });
    expect(await modelStatus(config, false, { fetch })).toMatchObject({ ready: false, detail: expect.stringContaining('no built-in Prompt API') as string });
  });
});
