import type { CallToolResult } from '@modelcontextprotocol/server';
import { UNTRUSTED_META, wrapUntrusted } from './untrusted.ts';

export interface ToolError {
  code: string;
  message: string;
  retryable: boolean;
  recovery_hint?: string | undefined;
}

/** A refusal as a tool result the model can read and act on (never a protocol error). */
export function errorResult(error: ToolError, text?: string): CallToolResult {
  const body = { code: error.code, message: error.message, retryable: error.retryable, ...(error.recovery_hint ? { recovery_hint: error.recovery_hint } : {}) };
  const words = text ?? [`${error.code}: ${error.message}`, error.recovery_hint].filter(Boolean).join('\n');
  return { isError: true, content: [{ type: 'text', text: words }], structuredContent: { error: body } };
}

/** What the model reads of such an answer: Steward's line (if any), then the page's text in the untrusted frame (`header`: see wrapUntrusted). */
export function framedText(summary: string, pageText: string, header = true): string {
  return `${summary ? `${summary}\n` : ''}${wrapUntrusted(pageText, header)}`;
}

/** Steward's answer carrying page-derived content: a short line of ours (if any), then the data inside the untrusted frame. */
export function pageDataResult(summary: string, structured: Record<string, unknown>, pageText: string, isError = false, header = true): CallToolResult {
  return {
    ...(isError ? { isError: true } : {}),
    content: [{ type: 'text', text: framedText(summary, pageText, header) }],
    structuredContent: structured,
    _meta: { ...UNTRUSTED_META },
  };
}

export const json = (value: unknown): string => JSON.stringify(value, null, 2);
