/** Text with single spaces and no spaces at either edge. */
const TIDY = /^\S(?:\S| (?=\S))*$/;

/**
 * Page text as Steward reads it: runs of whitespace collapsed, edges trimmed (page text arrives with
 * arbitrary spacing) and, when `max` is given, bounded, a cut marked with an ellipsis.
 */
export function cleanText(text: string, max = Infinity): string {
  // Most texts are already tidy (single spaces, no edges): keep them as they are, no copy.
  if (text.length <= max && TIDY.test(text)) return text;
  // Only a bounded head is ever looked at: a 5 MB text node costs no more than a short one.
  const head = text.length > max * 8 + 64 ? text.slice(0, max * 8 + 64) : text;
  const collapsed = head.replace(/\s+/g, ' ').trim();
  const cut = collapsed.length > max || head.length < text.length;
  return cut ? `${collapsed.slice(0, Math.max(0, max - 1))}…` : collapsed;
}
