import { describe, expect, it } from 'vitest';
import { navigationProblem } from '../../../src/protocol/navigation-url.ts';
import { NavGotoInput } from '../../../src/protocol/action.ts';

describe('where an agent may send the browser', () => {
  it('http(s) URLs without credentials pass', () => {
    expect(navigationProblem('http://localhost:4102/partners?to=x')).toBeUndefined();
    expect(navigationProblem('https://example.com/')).toBeUndefined();
  });

  it('a user name or password is refused, including the user-info trick that names one host and goes to another', () => {
    expect(navigationProblem('http://user:pw@localhost:4102/')?.problem).toBe('credentials');
    expect(navigationProblem('http://localhost:4102@127.0.0.1:9/')?.problem).toBe('credentials');
    expect(navigationProblem('http://user@localhost:4102/')?.problem).toBe('credentials');
  });

  it('other schemes and junk are refused', () => {
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x', 'chrome://settings', 'ftp://x/']) expect(navigationProblem(url)?.problem).toBe('not_http');
    expect(navigationProblem('not a url')?.problem).toBe('not_a_url');
  });

  it('nav.goto input says why, as INVALID_INPUT issues do', () => {
    const r = NavGotoInput.safeParse({ url: 'http://user:pw@localhost:4102/' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toMatch(/user name or password/);
  });
});
