import { useEffect, useState } from 'preact/hooks';
import { t } from '../../base/i18n.ts';
import type { BridgeStatus } from '../../protocol/bridge.ts';
import { bridgeStatus, subscribe } from '../background-client.ts';
import { BRIDGE_INSTALL_COMMAND, bridgeStatusWords } from '../lib/bridge-status.ts';

/** Whether MCP clients can reach Steward: the native-messaging link to steward-bridge, kept live. */
export function BridgeStatusBlock() {
  const [status, setStatus] = useState<BridgeStatus | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let alive = true;
    const load = () =>
      bridgeStatus().then(
        (s) => alive && (setStatus(s), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load();
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/bridge-changed' || m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, []);
  const words = status && bridgeStatusWords(status);
  return (
    <fieldset class="bridge-status">
      <legend>{t('pairing_bridge_legend')}</legend>
      {error && (
        <p class="error-text" role="alert">
          {t('pairing_bridge_failed', error)}
        </p>
      )}
      {!words && !error && <p class="muted">{t('app_loading')}</p>}
      {words && (
        <>
          <p class={status.connected ? 'bridge-line ok' : 'bridge-line off'} role="status">
            <strong>{words.headline}</strong>
          </p>
          <p class="note">{words.detail}</p>
          {words.hint && <p class="note">{withCode(words.hint, BRIDGE_INSTALL_COMMAND)}</p>}
        </>
      )}
    </fieldset>
  );
}

/** The hint with its command set as code. */
function withCode(text: string, command: string) {
  const [before, after] = text.split(command);
  return after === undefined ? (
    text
  ) : (
    <>
      {before}
      <code>{command}</code>
      {after}
    </>
  );
}
