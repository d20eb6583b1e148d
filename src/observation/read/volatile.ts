import { cleanText } from '../clean-text.ts';
import { isTransientValue } from './normalize.ts';

/**
 * Values a page changes on its own, whatever their node: the time of day, "3 min ago", a
 * countdown. They are shown, but they are never part of the page's state (nor its version).
 */

/** A time of day with seconds (`11:40:07`, `9:05:12 PM`): it ticks. */
const CLOCK_WITH_SECONDS = /\b\d{1,2}:\d{2}:\d{2}\b/;
/** A bare time of day (`11:40`, `9:05 pm`), the whole value. */
const BARE_CLOCK = /^\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?$/i;
const UNIT = String.raw`(?:s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|wks?|weeks?|mo|months?|y|yrs?|years?)`;
/** `3 min ago`, `an hour ago`, `just now`, `moments ago`. */
const RELATIVE = new RegExp(String.raw`\b(?:\d+|an?|one|a few|few)\s*${UNIT}\.?\s+ago\b|\bjust now\b|\bmoments? ago\b|\b(?:yesterday|today) at \d`, 'i');
/** `Ends in 4h`, `starts in 12 minutes`, `02:14:09 left`, `3d 4h remaining`. */
const COUNTDOWN = new RegExp(
  String.raw`\b(?:ends?|ending|starts?|starting|closes?|closing|expires?|expiring|resets?|in)\s+in\s+\d|\b(?:ends?|starts?|closes?|expires?|resets?|ending|starting)\s+in\b|\b\d+\s*${UNIT}\b[^.]{0,20}\b(?:left|remaining|to go)\b|\b\d{1,2}:\d{2}(?::\d{2})?\s*(?:left|remaining|to go)\b`,
  'i',
);

/** Labels of values that are the time, or how fresh something is, not what it is. */
const VOLATILE_LABEL =
  /^(?:(?:current |local |server |your )?time(?: now)?|now|clock|(?:last )?updated(?: at)?|as of|refreshed|last refresh(?:ed)?|last sync(?:ed)?|synced|online now|viewers|watching now|people viewing|time left|time remaining|ends in|starts in|countdown)$/i;

/** True when the value is the kind a page changes on its own (a clock, a relative time, a countdown, "loading…"). */
export function isVolatileValue(text: string): boolean {
  const t = cleanText(text);
  return isTransientValue(t) || CLOCK_WITH_SECONDS.test(t) || BARE_CLOCK.test(t) || RELATIVE.test(t) || COUNTDOWN.test(t);
}

/** True when a label names the time or a freshness (`Last updated`, `Time`), whatever its value. */
export function isVolatileLabel(label: string): boolean {
  return VOLATILE_LABEL.test(cleanText(label).replace(/:$/, ''));
}
