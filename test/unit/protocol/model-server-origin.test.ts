import { describe, expect, it } from 'vitest';
import { modelServerOrigin } from '../../../src/protocol/settings.ts';

describe("the co-pilot model's server, which Chrome must give Steward access to", () => {
  it('is the origin of the endpoint the person set', () => {
    expect(modelServerOrigin({ provider: 'openai', endpoint: 'http://localhost:11434/v1' })).toBe('http://localhost:11434');
    expect(modelServerOrigin({ provider: 'openai', endpoint: 'https://api.openai.com/v1/' })).toBe('https://api.openai.com');
    expect(modelServerOrigin({ provider: 'anthropic', endpoint: 'https://proxy.example:8443/anthropic' })).toBe('https://proxy.example:8443');
  });

  it("is Anthropic's API when that provider has no endpoint set", () => {
    expect(modelServerOrigin({ provider: 'anthropic', endpoint: '' })).toBe('https://api.anthropic.com');
  });

  it('is nothing for the Prompt API (it runs in the browser) or an OpenAI-compatible provider without an endpoint', () => {
    expect(modelServerOrigin({ provider: 'prompt-api', endpoint: 'https://ignored.example' })).toBeUndefined();
    expect(modelServerOrigin({ provider: 'openai', endpoint: '' })).toBeUndefined();
  });
});
