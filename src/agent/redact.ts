/**
 * Secrets that must never reach the model, even when a page or a tool echoes one: Steward's token
 * secrets, bearer credentials, provider API keys and cookie headers. Applied to every outcome the loop records and
 * to every data block of the prompt.
 */
const SECRETS: readonly RegExp[] = [/stw_secret_[A-Za-z0-9_-]+/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, /\bsk-(?:ant-)?[A-Za-z0-9_-]{16,}/g, /\b(?:set-)?cookie"?\s*:\s*"?[^"\n\\]*/gi];

export function redactSecrets(text: string): string {
  return SECRETS.reduce((s, pattern) => s.replace(pattern, '[redacted]'), text);
}
