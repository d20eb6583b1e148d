/**
 * Whether a URL may be where an agent sends the browser (nav.goto, steward_open), before anything
 * loads. Only http(s); never one carrying a user name or password (`http://user:pw@site/`): Chrome
 * would send those as credentials to the site, and a URL that reads as one host while naming
 * another (`http://allowed.example@evil.example/`) is how a person is misled about where it goes.
 */

export type UrlProblem = 'not_a_url' | 'not_http' | 'credentials';

export function navigationProblem(raw: string): { problem: UrlProblem; message: string } | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'not_a_url', message: 'must be an absolute http(s) URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'not_http', message: `must be an http(s) URL, not ${url.protocol.slice(0, 40)}` };
  if (url.username !== '' || url.password !== '') return { problem: 'credentials', message: 'must not carry a user name or password (user:pw@host): such a URL is never opened' };
  return undefined;
}
