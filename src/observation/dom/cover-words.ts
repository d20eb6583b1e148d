/** Words for what covers a control (pure; the DOM side is cover.ts). */

/**
 * The label of a control that closes or accepts what it sits in: Close, Dismiss, Accept (all
 * cookies), OK, Got it, No thanks, ✕ … (pure).
 */
export function isDismissLabel(label: string): boolean {
  const text = label
    .toLowerCase()
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
  if (/^[×✕✖✗x╳]$/u.test(text)) return true;
  return /^(?:close|dismiss|hide|accept|agree|i agree|allow|reject|decline|deny|ok|okay|got it|no thanks|not now|maybe later|continue|understood|i understand|skip)\b/u.test(
    text.replace(/[^\p{L}\p{N} ]/gu, '').trim(),
  );
}

/**
 * A plain word for a cover without a telling role (pure): a sticky or fixed bar at the top is a
 * header, a sticky one at the bottom a footer, anything else fixed or positioned an overlay.
 */
export function coverWord(position: string, edge: 'top' | 'bottom' | undefined): string {
  if (position === 'sticky') return edge === 'bottom' ? 'footer' : 'header';
  if (position === 'fixed') return edge === 'top' ? 'header' : 'overlay';
  if (position === 'absolute' || position === 'relative') return 'overlay';
  return 'element';
}
