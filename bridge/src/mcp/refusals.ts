import type { CallToolResult } from '@modelcontextprotocol/server';
import { errorResult, type ToolError } from './results.ts';

/** Steward's refusals in words a model can act on: what happened and what to do next. */
const GUIDANCE: Record<string, string> = {
  STEWARD_UNAVAILABLE:
    'Steward is not connected to this bridge right now: the browser is closed, Steward is not installed or is disabled, or the native host is not installed. Ask the person to open the browser with Steward; if it persists, run `steward-bridge install` and restart the browser. Then call again.',
  PAIRING_REFUSED: 'The person refused to pair this client in Steward. Do not retry on your own; ask the person first. The next call starts a new pairing request.',
  PAIRING_EXPIRED: 'The pairing request expired before the person accepted it. The next call starts a new pairing request with a new code.',
  PAIRING_UNKNOWN: 'Steward no longer knows this pairing request (the browser or Steward restarted). The next call starts a new pairing request with a new code.',
  TOKEN_INVALID:
    "This client's Steward token was revoked or has expired in Steward, so the bridge has forgotten it. The next call will ask the person to pair this client again in Steward's side panel.",
  SITE_NOT_ALLOWED: 'That tab or URL is not on a site the person allowed for this client. Use steward_tabs to see the tabs you may use, or ask the person to allow the site in Steward.',
  TAB_NOT_FOUND: 'That tab does not exist any more (or is not one you may see). Call steward_tabs for the current tabs.',
  POLICY_DENIED: 'The organisation that manages this browser does not allow this (error.details.policy names the rule). No approval can lift it: do not retry; tell the person what was refused.',
  SCOPE_DENIED: "The token the person granted this client does not cover this. Ask the person to grant a token with the needed scope (revoke this one in Steward's Tokens view and pair again).",
};

export function refusalResult(error: ToolError): CallToolResult {
  const guidance = GUIDANCE[error.code];
  const hint = error.recovery_hint ?? guidance;
  const text = [`${error.code}: ${error.message}`, guidance ?? error.recovery_hint].filter(Boolean).join('\n');
  return errorResult({ ...error, ...(hint ? { recovery_hint: hint } : {}) }, text);
}
