import type { ComponentChildren } from 'preact';
import { said } from '../lib/phrases.ts';
import { useEffect } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { ModelProvider } from '../../protocol/copilot.ts';
import type { Settings } from '../../protocol/settings.ts';
import { demoModelLabel, isDemoModel } from '../lib/demo-model.ts';
import { useModelStatus } from '../use-model-status.ts';
import { ModelConnectionTest } from './ModelConnectionTest.tsx';
import { ModelKeyField } from './ModelKeyField.tsx';
import { PromptApiPrepare } from './PromptApiPrepare.tsx';
import type { Policy } from '../../protocol/managed-policy.ts';
import { modelVerdict } from '../../protocol/policy-rules.ts';
import { ManagedNote } from './ManagedNote.tsx';
import type { CopilotNumbers } from '../lib/settings-form.ts';

/** The providers, in the UI language; Anthropic is a name, the same in every language. */
const providers = (): ReadonlyArray<readonly [ModelProvider, string]> => [
  ['openai', t('copilot_provider_openai')],
  ['anthropic', 'Anthropic'],
  ['prompt-api', t('copilot_provider_prompt_api')],
];

const endpointHint = (provider: ModelProvider): string =>
  provider === 'openai' ? 'http://localhost:11434/v1' : provider === 'anthropic' ? t('copilot_endpoint_default', 'https://api.anthropic.com') : '';

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
  /** The API key as typed (saved by the form's Save), and a count of the key's saves: each one reads the model's status again. */
  keyText: string;
  onKeyText: (text: string) => void;
  keySaves: number;
}

/** Settings → Co-pilot: which model drives the co-pilot, its key (write-only), and the run's budgets. */
export function CopilotSettings({ copilot: c, numbers, onCopilot, onNumber, err, described, policy, keyText, onKeyText, keySaves }: Props) {
  const model = useModelStatus();
  useEffect(() => {
    if (keySaves > 0) model.reload();
  }, [keySaves]);
  const set = (patch: Partial<Settings['copilot']>) => onCopilot({ ...c, ...patch });
  const num = (key: keyof CopilotNumbers, id: string, label: string, min: number, max: number) => (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} type="number" min={min} max={max} value={numbers[key]} onInput={(e) => onNumber(key, e.currentTarget.value)} {...described(`copilot.${key}`, id)} />
      {err(`copilot.${key}`, id)}
    </div>
  );
  return (
    <fieldset disabled={!policy.copilotEnabled} aria-label={t('copilot_settings_link')}>
      <legend>{t('copilot_heading')}</legend>
      <p class="note">{t('copilot_settings_note')}</p>
      {!policy.copilotEnabled && <ManagedNote>{t('copilot_managed_off')}</ManagedNote>}
      {policy.copilotEnabled && policy.allowedModelEndpoints && (
        <ManagedNote>
          {t('copilot_managed_endpoints', policy.allowedModelEndpoints.length ? policy.allowedModelEndpoints.join(', ') : t('copilot_managed_no_endpoint'))}{' '}
          {modelVerdict(policy, c).ok ? '' : t('copilot_managed_not_allowed')}
        </ManagedNote>
      )}
      <div class="field">
        <label for="set-provider">{t('copilot_provider')}</label>
        <select id="set-provider" value={c.provider} onChange={(e) => set({ provider: e.currentTarget.value as ModelProvider })}>
          {providers().map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </div>
      {c.provider !== 'prompt-api' && (
        <div class="field">
          <label for="set-endpoint">{t('copilot_endpoint')}</label>
          <input
            id="set-endpoint"
            type="url"
            placeholder={endpointHint(c.provider)}
            value={c.endpoint}
            onInput={(e) => set({ endpoint: e.currentTarget.value.trim() })}
            {...described('copilot.endpoint', 'set-endpoint')}
          />
          {err('copilot.endpoint', 'set-endpoint')}
        </div>
      )}
      <div class="field">
        <label for="set-model">{t('copilot_model_name')}</label>
        <input
          id="set-model"
          value={c.model}
          placeholder={c.provider === 'anthropic' ? t('copilot_example', 'claude-sonnet-4-5') : c.provider === 'prompt-api' ? t('copilot_on_device_model') : t('copilot_example', 'llama3.1:8b')}
          onInput={(e) => set({ model: e.currentTarget.value })}
          {...described('copilot.model', 'set-model')}
        />
        {err('copilot.model', 'set-model')}
        {isDemoModel(c.model) && <p class="note demo">{t('copilot_demo_note', demoModelLabel())}</p>}
      </div>
      {c.provider === 'prompt-api' ? <PromptApiPrepare /> : <ModelKeyField provider={c.provider} hasKey={model.status?.has_key} keyText={keyText} onKeyText={onKeyText} onChanged={model.reload} />}
      {num('max_steps', 'set-max-steps', t('copilot_max_steps'), 1, 100)}
      {num('time_budget_minutes', 'set-time-budget', t('copilot_time_budget'), 1, 120)}
      {num('token_budget', 'set-token-budget', t('copilot_token_budget'), 1000, 5_000_000)}
      <p class="note model-status" role="status" aria-label={t('copilot_status_label')}>
        {model.status
          ? model.status.ready
            ? t('copilot_model_set_up', said(model.status.model_label_said, model.status.model_label))
            : t('copilot_model_not_ready', model.status.detail !== undefined ? said(model.status.detail_said, model.status.detail) : t('copilot_not_set_up'))
          : model.error
            ? t('copilot_model_status_unknown', model.error)
            : t('copilot_checking')}
      </p>
      <ModelConnectionTest />
    </fieldset>
  );
}
