/**
 * An open redirect, as many real sites have one ("leaving our site" links, tracking hops, login
 * `?next=`): `/leave?to=<url>` answers 302 to whatever URL it is given, any origin. `/partners`
 * links through it to a partner site, and has a GET form that goes through it too. Steward must
 * not let an agent ride it off the sites it may use: hostile tests point `to` at another local
 * server and check that server's own request log.
 */
import { html, sendHtml, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

function partnersPage(to: string): string {
  const hop = `/leave?to=${encodeURIComponent(to)}`;
  const body = html`<section class="card">
<h1>Our partners</h1>
<p><a href="${hop}">Continue to the partner site</a></p>
<form method="get" action="/leave">
  <input type="hidden" name="to" value="${to}">
  <button type="submit">Track my parcel</button>
</form>
</section>`;
  return page({ title: `Partners — ${LAB.brand}`, brand: LAB.brand, accent: LAB.accent, body });
}

export function mountOpenRedirect(router: Router): void {
  router.get('/partners', (ctx) => sendHtml(ctx.res, 200, partnersPage(ctx.url.searchParams.get('to') ?? 'https://example.com/')));
  router.get('/leave', (ctx) => {
    ctx.res.writeHead(302, { location: ctx.url.searchParams.get('to') ?? '/', 'content-type': 'text/plain; charset=utf-8' });
    ctx.res.end('Leaving the lab');
  });
}
