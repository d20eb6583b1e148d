/**
 * Chrome's built-in Prompt API as the panel needs it: whether the on-device model is there, and
 * its download, which Chrome starts only inside a user gesture (so from the panel's click, not from
 * the service worker). Typed here because the DOM library does not describe it yet.
 */
export type Availability = 'unavailable' | 'downloadable' | 'downloading' | 'available';

interface DownloadMonitor {
  addEventListener(type: 'downloadprogress', listener: (event: { loaded: number }) => void): void;
}
interface LanguageModelStatic {
  availability(): Promise<Availability>;
  create(options: { monitor?: (m: DownloadMonitor) => void }): Promise<{ destroy(): void }>;
}

function api(): LanguageModelStatic | undefined {
  return (globalThis as { LanguageModel?: LanguageModelStatic }).LanguageModel;
}

export async function promptApiAvailability(): Promise<Availability> {
  const lm = api();
  return lm ? lm.availability() : 'unavailable';
}

/** Downloads the model if needed (call from a click), reporting progress 0–1; resolves when it is usable. */
export async function preparePromptApi(onProgress: (loaded: number) => void): Promise<Availability> {
  const lm = api();
  if (!lm) return 'unavailable';
  const before = await lm.availability();
  if (before === 'unavailable' || before === 'available') return before;
  const session = await lm.create({ monitor: (m) => m.addEventListener('downloadprogress', (e) => onProgress(e.loaded)) });
  session.destroy();
  return lm.availability();
}
