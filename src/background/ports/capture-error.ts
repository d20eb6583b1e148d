/**
 * Why the last screenshot capture failed, if one did: a diagnostic for end-to-end tests. Apart from
 * screenshot.ts so the test hooks' names can be read in Node without loading the browser APIs.
 */
let lastError: string | undefined;

export const lastCaptureError = (): string | undefined => lastError;

export function noteCaptureError(error: unknown): void {
  lastError = String(error);
}
