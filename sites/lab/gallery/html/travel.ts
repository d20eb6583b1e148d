import { crumbs, htmlDoc } from './doc.ts';

/** A booking with a reference code, and a ticket with a seat chooser. */

export function bookingPage(): string {
  return htmlDoc({
    title: 'Manage booking — Skylark Air',
    brand: 'Skylark Air',
    body: `${crumbs('Trips', 'Manage booking')}
<div class="panel"><div class="booking-head"><div class="muted">Booking reference: <strong>K7QX2P</strong></div><h1 style="font-size:22px;margin:4px 0">Lisbon → Copenhagen</h1><span class="pill pill--green">Confirmed</span></div>
<dl class="kv" style="margin-top:12px"><dt>Flight</dt><dd>SK 1203 · Fri 14 June 2024 · 09:40–14:05</dd><dt>Passengers</dt><dd>2 adults</dd><dt>Fare paid</dt><dd>€412.60</dd></dl>
<label style="display:block;margin-top:12px"><input type="checkbox" class="js-ins"> Add travel insurance (€18.00)</label>
<div class="muted js-watch" aria-live="polite" style="margin-top:8px">14 people are looking at this route</div>
<p><button class="btn btn--primary" type="button">Check in online</button> <button class="btn btn--danger" type="button">Cancel booking</button></p></div>`,
    script: `(function(){setInterval(function(){document.querySelector('.js-watch').textContent=(8+Math.floor(Math.random()*20))+' people are looking at this route'},3000)})();`,
  });
}

export function ticketSeatPage(): string {
  return htmlDoc({
    title: 'Ticket TKT-55012 · Riverside Arena',
    brand: 'Riverside Arena',
    css: '.hold{font-size:13px;color:#a40e26}',
    body: `${crumbs('My tickets', 'TKT-55012')}
<div class="panel"><div class="ttl"><h1>The Lumineers — Live</h1><span class="pill pill--green">Confirmed</span></div>
<dl class="kv" style="margin-top:10px"><dt>Ticket</dt><dd>TKT-55012</dd><dt>Date</dt><dd>Sat 20 July 2024, doors 19:00</dd><dt>Section</dt><dd>Balcony B</dd></dl>
<p style="margin-top:12px"><label for="seat">Seat</label> <select id="seat" name="seat"><option>Row F, seat 11</option><option selected>Row F, seat 12</option><option>Row G, seat 3</option><option>Row G, seat 4</option></select></p>
<p class="hold">Seat changes held for <span class="js-cd">05:00</span></p>
<p><button class="btn btn--primary" type="button">Add to wallet</button> <button class="btn" type="button">Transfer ticket</button></p></div>`,
    script: `(function(){var s=300;setInterval(function(){s=s>0?s-1:300;document.querySelector('.js-cd').textContent=String(Math.floor(s/60)).padStart(2,'0')+':'+String(s%60).padStart(2,'0')},1000)})();`,
  });
}
