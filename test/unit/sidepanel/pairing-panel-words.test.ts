import { describe, expect, it } from 'vitest';
import { bridgeStatusWords } from '../../../src/sidepanel/lib/bridge-status.ts';
import { tokenOwner } from '../../../src/sidepanel/lib/token-owner.ts';

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
