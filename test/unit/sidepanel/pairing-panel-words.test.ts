import { describe, expect, it } from 'vitest';
import { bridgeStatusWords } from '../../../src/sidepanel/lib/bridge-status.ts';
import { tokenOwner } from '../../../src/sidepanel/lib/token-owner.ts';
import { readFileSync } from 'node:fs';
import { useMessageSource } from '../../../src/base/i18n.ts';
import { pairingRefusalText } from '../../../src/sidepanel/lib/pairing-refusals.ts';
import { catalogueSource, type Catalogue } from '../catalogue-source.ts';

describe('Settings: the MCP bridge line', () => {
  it('connected, with the host version', () => {
    expect(bridgeStatusWords({ connected: true, host_version: '0.1.0' })).toEqual({ headline: 'MCP bridge: connected', detail: 'Host version 0.1.0.' });
  });

  it('not connected, with the problem and how to install', () => {
    const w = bridgeStatusWords({ connected: false, problem: 'Specified native messaging host not found.' });
    expect(w.headline).toBe('MCP bridge: not connected');
    expect(w.detail).toBe('Specified native messaging host not found.');
    expect(w.hint).toContain('npx steward-bridge install');
  });
});

describe('Tokens: who a token is for', () => {
  it('an MCP client by its label', () => {
    expect(tokenOwner({ agent_id: 'agent:mcp-claude-desktop-3fa91c', label: 'Claude Desktop' })).toEqual({ label: 'Claude Desktop', kind: 'MCP client' });
  });

  it("Steward's own agents are not called MCP clients", () => {
    expect(tokenOwner({ agent_id: 'agent:copilot' })).toEqual({});
    expect(tokenOwner({ agent_id: 'agent:mcpish', label: 'x' })).toEqual({ label: 'x' });
  });
});

describe('a refused pairing code', () => {
  it('says what the worker says, from the catalogue: the tries left, the third wrong code, an expired request', () => {
    const en = JSON.parse(readFileSync(new URL('../../../public/_locales/en/messages.json', import.meta.url), 'utf8')) as Catalogue;
    const vi = JSON.parse(readFileSync(new URL('../../../public/_locales/vi/messages.json', import.meta.url), 'utf8')) as Catalogue;
    useMessageSource(catalogueSource(en, 'en-US'));
    // The worker's English, word for word (src/mcp/pairing-book.ts), as the e2e tests read it.
    expect(pairingRefusalText({ code: 'PAIRING_CODE_MISMATCH', message: '' }, 'Evil Guesser', 0)).toBe('The code does not match the one Evil Guesser shows. 2 tries left.');
    expect(pairingRefusalText({ code: 'PAIRING_CODE_MISMATCH', message: '' }, 'Evil Guesser', 1)).toBe('The code does not match the one Evil Guesser shows. 1 try left.');
    expect(pairingRefusalText({ code: 'PAIRING_REFUSED', message: '' }, 'Evil Guesser', 2)).toBe(
      'That code does not match either. After 3 wrong codes the request from Evil Guesser is refused; the client must ask again.',
    );
    expect(pairingRefusalText({ code: 'UNREACHABLE', message: 'Steward’s background could not be reached: gone' }, 'X', 0)).toBe('Steward’s background could not be reached: gone');
    useMessageSource(catalogueSource(vi, 'vi'));
    expect(pairingRefusalText({ code: 'PAIRING_CODE_MISMATCH', message: '' }, 'Evil Guesser', 0)).toBe('Mã không khớp với mã mà Evil Guesser hiển thị. Còn 2 lần thử.');
    expect(pairingRefusalText({ code: 'PAIRING_EXPIRED', message: '' }, 'X', 0)).toBe(vi.pairing_request_expired!.message);
  });
});
