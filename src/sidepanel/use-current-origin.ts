import { useEffect, useState } from 'preact/hooks';
import { getTabTools } from './background-client.ts';
import { currentTabId } from './current-tab.ts';

/**
 * The current tab's origin, as its content script reported it to the service worker (Steward
 * has no "tabs" permission, so it cannot read tab URLs itself). Undefined on pages Steward does
 * not run in (chrome://, the Web Store, …).
 */
export function useCurrentOrigin(): string | undefined {
  const tabId = currentTabId.value;
  const [origin, setOrigin] = useState<string | undefined>(undefined);
  useEffect(() => {
    setOrigin(undefined);
    if (tabId === undefined) return;
    let alive = true;
    getTabTools(tabId).then(
      (r) => alive && setOrigin(r.frames.find((f) => f.frameId === 0)?.origin),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [tabId]);
  return origin;
}
