import { describe, expect, it } from 'vitest';
import { originList, toolEntry, ToolRegistry } from '../../../../src/content/main/webmcp/tool-registry.ts';

const execute = () => 'ok';
const ORIGIN = 'https://shop.example';

describe('the polyfill’s tool registry', () => {
  it('accepts exposedTo: potentially trustworthy origins, kept as origins; anything else is a TypeError', () => {
    expect(originList(['https://partner.example/some/path', 'http://localhost:4102'], 'exposedTo')).toEqual(['https://partner.example', 'http://localhost:4102']);
    expect(originList(undefined, 'exposedTo')).toEqual([]);
    expect(() => originList(['http://partner.example'], 'exposedTo')).toThrow(TypeError);
    expect(() => originList(['not a url'], 'exposedTo')).toThrow(TypeError);
    expect(() => originList('https://partner.example', 'exposedTo')).toThrow(TypeError);
  });

  it('lists a tool to its own origin always, to another origin only when exposed to it', () => {
    const registry = new ToolRegistry();
    registry.add(toolEntry({ name: 'own', description: 'd', execute }, []));
    registry.add(toolEntry({ name: 'shared', description: 'd', execute }, ['https://partner.example']));
    expect(registry.list(ORIGIN, 'win', ORIGIN).map((t) => t.name)).toEqual(['own', 'shared']);
    expect(registry.list(ORIGIN, 'win', 'https://partner.example').map((t) => t.name)).toEqual(['shared']);
    expect(registry.list(ORIGIN, 'win', 'https://other.example')).toEqual([]);
    expect(registry.find('own', ORIGIN, 'https://partner.example')).toBeUndefined();
  });

  it('lists as Chrome does: the schema as JSON text, the origin and window, annotations only when declared (consequentialHint and debugging kept)', () => {
    const registry = new ToolRegistry();
    registry.add(toolEntry({ name: 'plain', description: 'd', execute }, []));
    registry.add(
      toolEntry({ name: 'pay', description: 'd', inputSchema: { type: 'object', properties: { amount: { type: 'number' } } }, annotations: { consequentialHint: true, debugging: 1 }, execute }, []),
    );
    const [pay, plain] = registry.list(ORIGIN, 'win', ORIGIN);
    expect(plain).toEqual({ name: 'plain', title: '', description: 'd', origin: ORIGIN, window: 'win' });
    expect(pay).toMatchObject({
      inputSchema: '{"type":"object","properties":{"amount":{"type":"number"}}}',
      annotations: { readOnlyHint: false, untrustedContentHint: false, consequentialHint: true, debugging: true },
    });
  });

  it('refuses what Chrome refuses: a second tool of one name, a bad name, no execute', () => {
    const registry = new ToolRegistry();
    registry.add(toolEntry({ name: 'once', description: 'd', execute }, []));
    expect(() => registry.add(toolEntry({ name: 'once', description: 'd', execute }, []))).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    expect(() => toolEntry({ name: 'has space', description: 'd', execute }, [])).toThrow(expect.objectContaining({ name: 'InvalidStateError' }));
    expect(() => toolEntry({ name: 'x', description: 'd' }, [])).toThrow(TypeError);
  });

  it('removes exactly one registration: an old signal never removes the tool registered again under its name', () => {
    const registry = new ToolRegistry();
    const first = toolEntry({ name: 'swap', description: 'd', execute }, []);
    registry.add(first);
    expect(registry.remove(first)).toBe(true);
    const second = toolEntry({ name: 'swap', description: 'd', execute }, []);
    registry.add(second);
    expect(registry.remove(first)).toBe(false);
    expect(registry.find('swap', ORIGIN, ORIGIN)).toBe(second);
  });
});
