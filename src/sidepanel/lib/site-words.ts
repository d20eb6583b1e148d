import { t } from '../../base/i18n.ts';
import { Origin } from '../../protocol/primitives.ts';
import type { AllowOutcome } from '../site-permission.ts';

/**
 * The site a person typed, as an origin: `shop.example` → `https://shop.example`,
 * `http://localhost:4100/orders` → `http://localhost:4100`. Undefined for anything that is not an
 * http(s) site (a browser page, a file, words). Pure.
 */
export function siteFromAddress(input: string): string | undefined {
  const typed = input.trim();
  if (!typed || /\s/.test(typed)) return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(typed) && !/^[^/:]+:\d+(\/|$)/.test(typed) ? typed : `https://${typed}`;
  try {
    const url = new URL(withScheme);
    if (!url.hostname.includes('.') && url.hostname !== 'localhost' && !url.hostname.startsWith('[')) return undefined;
    return Origin.safeParse(url.origin).success ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What the panel says once the person's "Allow" click has run its course. */
export function allowOutcomeWords(origin: string, outcome: AllowOutcome): string {
  if (outcome.kind === 'declined') return t('pairing_allow_declined', origin);
  return outcome.tabs > 0 ? t('pairing_allowed_open_tabs', origin) : t('pairing_allowed', origin);
}
