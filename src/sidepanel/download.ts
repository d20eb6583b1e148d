/** Saves text as a file through a temporary <a download> (no downloads permission needed). */
export function downloadText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // The browser has the blob once the click is handled; free it a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `steward-audit-2026-08-03T11-40-00.jsonl`: sortable, and safe on every file system. */
export function auditFilename(at: Date): string {
  return `steward-audit-${at.toISOString().slice(0, 19).replace(/:/g, '-')}.jsonl`;
}
