import { html, raw, type SafeHtml } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

/** A lab page of one card under its heading, with an optional inline script (the consent and sink pages). */
export function cardPage(title: string, body: SafeHtml, script = ''): string {
  return page({
    title: `${title} — ${LAB.brand}`,
    brand: LAB.brand,
    accent: LAB.accent,
    body: html`<section class="card"><h1>${title}</h1>${body}</section>${raw(script ? `<script>${script}</script>` : '')}`,
  });
}
