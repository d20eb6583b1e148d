import type { ComponentChildren } from 'preact';
import type { ModelProvider } from '../../protocol/copilot.ts';
import type { Settings } from '../../protocol/settings.ts';
import { DEMO_MODEL_LABEL, isDemoModel } from '../lib/demo-model.ts';
import { useModelStatus } from '../use-model-status.ts';
import { ModelKeyField } from './ModelKeyField.tsx';
import { PromptApiPrepare } from './PromptApiPrepare.tsx';
import type { Policy } from '../../protocol/managed-policy.ts';
import { modelVerdict } from '../../protocol/policy-rules.ts';
import { ManagedNote } from './ManagedNote.tsx';

/** The co-pilot's numeric rails, edited as text so a half-typed number can be shown and refused. */
export type CopilotNumbers = Record<'max_steps' | 'time_budget_minutes' | 'token_budget', string>;

export const copilotNumbers = (c: Settings['copilot']): CopilotNumbers => ({
  max_steps: String(c.max_steps),
  time_budget_minutes: String(c.time_budget_minutes),
  token_budget: String(c.token_budget),
});

const PROVIDERS: ReadonlyArray<readonly [ModelProvider, string]> = [
  ['openai', 'OpenAI-compatible (OpenAI, Ollama, LM Studio, vLLM, OpenRouter)'],
  ['anthropic', 'Anthropic'],
  ['prompt-api', 'Chrome built-in (Prompt API, on this device)'],
];

const ENDPOINT_HINT: Record<ModelProvider, string> = {
  openai: 'http://localhost:11434/v1',
  anthropic: 'https://api.anthropic.com (default)',
  'prompt-api': '',
};

interface Props {
  copilot: Settings['copilot'];
  numbers: CopilotNumbers;
  onCopilot: (next: Settings['copilot']) => void;
  onNumber: (key: keyof CopilotNumbers, text: string) => void;
  /** The settings form's own error line and aria wiring, by field path. */
  err: (path: string, id: string) => ComponentChildren;
  described: (path: string, id: string) => Record<string, unknown>;
  /** The organisation's policy: the co-pilot off (every field disabled), or only some endpoints. */
  policy: Policy;
}

/** Settings → Co-pilot: which model drives the co-pilot, its key (write-only), and the run's budgets. */
export function CopilotSettings({ copilot: c, numbers, onCopilot, onNumber, err, described, policy }: Props) {
  const model = useModelStatus();
  const set = (patch: Partial<Settings['copilot']>) => onCopilot({ ...c, ...patch });
  const num = (key: keyof CopilotNumbers, id: string, label: string, min: number, max: number) => (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="number" min={min} max={max} value={numbers[key]} onInput={(e) => onNumber(key, e.currentTarget.value)} {...described(`copilot.${key}`, id)} />
      {err(`copilot.${key}`, id)}
    </div>
  );
  return (
    <fieldset disabled={!policy.copilotEnabled} aria-label="Co-pilot settings">
      <legend>Co-pilot</legend>
      <p class="note">The language model that drives the co-pilot (the agent in this panel), and the limits of each run. Nothing else reads these.</p>
      {!policy.copilotEnabled && <ManagedNote>the co-pilot is off in this browser.</ManagedNote>}
      {policy.copilotEnabled && policy.allowedModelEndpoints && (
        <ManagedNote>
          the co-pilot may use only {policy.allowedModelEndpoints.length ? policy.allowedModelEndpoints.join(', ') : 'no model endpoint'}.{' '}
          {modelVerdict(policy, c).ok ? '' : 'The model set here is not one of them, so the co-pilot will not start.'}
        </ManagedNote>
      )}
      <div class="field">
        <label for="set-provider">Provider</label>
        <select id="set-provider" value={c.provider} onChange={(e) => set({ provider: e.currentTarget.value as ModelProvider })}>
          {PROVIDERS.map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {c.provider !== 'prompt-api' && (
        <div class="field">
          <label for="set-endpoint">Endpoint URL</label>
          <input
            id="set-endpoint"
            type="url"
            placeholder={ENDPOINT_HINT[c.provider]}
            value={c.endpoint}
            onInput={(e) => set({ endpoint: e.currentTarget.value.trim() })}
            {...described('copilot.endpoint', 'set-endpoint')}
          />
          {err('copilot.endpoint', 'set-endpoint')}
        </div>
      )}
      <div class="field">
        <label for="set-model">Model name</label>
        <input
          id="set-model"
          value={c.model}
          placeholder={c.provider === 'anthropic' ? 'e.g. claude-sonnet-4-5' : c.provider === 'prompt-api' ? '(Chrome’s on-device model)' : 'e.g. llama3.1:8b'}
          onInput={(e) => set({ model: e.currentTarget.value })}
          {...described('copilot.model', 'set-model')}
        />
        {err('copilot.model', 'set-model')}
        {isDemoModel(c.model) && <p class="note demo">{DEMO_MODEL_LABEL}: it follows a fixed script, to show Steward at work without a real model.</p>}
      </div>
      {c.provider === 'prompt-api' ? <PromptApiPrepare /> : <ModelKeyField provider={c.provider} hasKey={model.status?.has_key} onChanged={model.reload} />}
      {num('max_steps', 'set-max-steps', 'Most steps per run', 1, 100)}
      {num('time_budget_minutes', 'set-time-budget', 'Time budget per run (minutes)', 1, 120)}
      {num('token_budget', 'set-token-budget', 'Token budget per run', 1000, 5_000_000)}
      <p class="note model-status" role="status" aria-label="Model status">
        {model.status
          ? model.status.ready
            ? `Model ready: ${model.status.model_label}.`
            : `Model not ready: ${model.status.detail ?? 'it is not set up yet.'}`
          : model.error
            ? `Model status unknown: ${model.error}`
            : 'Checking the model…'}
      </p>
    </fieldset>
  );
}
