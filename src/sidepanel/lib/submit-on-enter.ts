/** A text box's key handler: Enter sends its form (as a chat box does), Shift+Enter adds a line, and an IME composition keeps its Enter. */
export function submitOnEnter(e: KeyboardEvent): void {
  if (e.key !== 'Enter' || e.shiftKey || e.isComposing) return;
  e.preventDefault();
  (e.currentTarget as HTMLTextAreaElement | null)?.form?.requestSubmit();
}
