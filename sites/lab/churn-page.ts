/**
 * `/churn`: a basket page that changes all the time on its own — a ticking clock (plain text and
 * a `<time>`), a countdown, a rotating promo line, a carousel, a price ticker, an ad slot and a
 * live "saved" line — next to one real change a person can make: the quantity stepper (− / +),
 * which also changes the line's subtotal and the total. Nothing here is labelled for Steward.
 */
import { html, sendHtml, sendScript, type Router } from '../http.ts';
import { page } from '../ui.ts';
import { LAB } from './pages.ts';

const PROMOS = ['Members save: 10% on kettles', 'Free returns: 30 days', 'Gift cards: from $25', 'New glazes: 4 colours'];
const SLIDES = ['Autumn blend — roasted this week', 'Brew guide: pour-over in 4 steps', 'Visit our café in Lisbon'];
const ADS = ['Sponsored · Hand grinder $49.90', 'Sponsored · Gooseneck kettle $39.00', 'Sponsored · Paper filters 2 for $10'];
const UNIT_CENTS = 2400;

const CHURN_SCRIPT = `(() => {
  'use strict';
  const PROMOS = ${JSON.stringify(PROMOS)};
  const SLIDES = ${JSON.stringify(SLIDES)};
  const ADS = ${JSON.stringify(ADS)};
  const $ = (id) => document.getElementById(id);
  const two = (n) => String(n).padStart(2, '0');
  const clock = () => { const d = new Date(); return two(d.getHours()) + ':' + two(d.getMinutes()) + ':' + two(d.getSeconds()); };
  let left = 2 * 3600 + 14 * 60 + 9;
  let promo = 0, slide = 0, ad = 0, saved = 0;
  setInterval(() => {
    $('clock').textContent = clock();
    $('now').textContent = clock();
    $('now').setAttribute('datetime', new Date().toISOString());
    left -= 1;
    $('countdown').textContent = two(Math.floor(left / 3600)) + ':' + two(Math.floor(left / 60) % 60) + ':' + two(left % 60);
    saved += 1;
    $('saved').textContent = 'Basket saved ' + saved + ' s ago';
  }, 1000);
  setInterval(() => { promo = (promo + 1) % PROMOS.length; $('promo').textContent = PROMOS[promo]; }, 1200);
  setInterval(() => { slide = (slide + 1) % SLIDES.length; $('slide').textContent = SLIDES[slide]; }, 2000);
  setInterval(() => { ad = (ad + 1) % ADS.length; $('ad').textContent = ADS[ad]; }, 1500);
  setInterval(() => {
    const quote = (name, base) => name + ' ' + (base + Math.random() * 4).toFixed(2);
    $('ticker').innerHTML = '<span>' + quote('ACME', 185) + '</span> · <span>' + quote('GLOBEX', 40) + '</span> · <span>' + quote('INITECH', 12) + '</span>';
  }, 400);

  const unit = ${UNIT_CENTS};
  const money = (cents) => '$' + (cents / 100).toFixed(2);
  const show = (qty) => {
    $('qty').textContent = String(qty);
    $('line-subtotal').textContent = money(unit * qty);
    $('total').textContent = money(unit * qty);
  };
  let qty = 2;
  $('minus').addEventListener('click', () => { if (qty > 1) show(--qty); });
  $('plus').addEventListener('click', () => show(++qty));
})();`;

function churnPage(): string {
  const body = html`<section class="card">
<p class="muted">Time <span id="clock">00:00:00</span> · <time id="now">00:00:00</time></p>
<p id="promo">${PROMOS[0]!}</p>
<p class="muted">Deal ends in <span id="countdown">02:14:09</span></p>
<div class="ticker" id="ticker"><span>ACME 187.23</span> · <span>GLOBEX 42.10</span> · <span>INITECH 13.37</span></div>
<section aria-roledescription="carousel" aria-label="Stories"><p id="slide">${SLIDES[0]!}</p></section>
<h1>Your basket</h1>
<p>Ceramic pour-over dripper · $24.00 each</p>
<div class="stepper">
  <button type="button" id="minus" aria-label="Decrease quantity">−</button>
  <span id="qty">2</span>
  <button type="button" id="plus" aria-label="Increase quantity">+</button>
</div>
<p>Subtotal: <span id="line-subtotal">$48.00</span></p>
<p><strong>Total:</strong> <span id="total">$48.00</span></p>
<p role="status" aria-live="polite" id="saved">Basket saved 0 s ago</p>
<aside aria-label="Advertisement"><p id="ad">${ADS[0]!}</p></aside>
<button type="button">Check out</button>
</section>`;
  return page({ title: `Your basket — ${LAB.brand}`, brand: LAB.brand, accent: LAB.accent, scripts: ['/assets/churn.js'], body });
}

/** Mounts the churn page and its script on the lab. */
export function mountChurnPage(router: Router): void {
  router.get('/churn', (ctx) => sendHtml(ctx.res, 200, churnPage()));
  router.get('/assets/churn.js', (ctx) => sendScript(ctx.res, CHURN_SCRIPT));
}
