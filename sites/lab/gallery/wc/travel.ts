import { slCrumbs, wcDoc } from './doc.ts';

/** A ticket with a seat sl-select, and a booking with a modal sl-dialog open over it. */

export function ticketSeatPage(): string {
  return wcDoc({
    title: 'TKT-70331 — Metro Stage Tickets',
    brand: 'Metro Stage',
    body: `${slCrumbs('My tickets', 'TKT-70331')}
<div class="heading"><h1>Hamilton — Evening performance</h1><sl-tag variant="success">Confirmed</sl-tag></div>
<sl-card><div class="kv"><span class="k">Ticket</span><span>TKT-70331</span><span class="k">Date</span><span>Thu 12 September 2024, 19:30</span><span class="k">Price</span><span>$148.00</span></div>
<div style="margin-top:14px;max-width:320px"><sl-select label="Seat" value="c-7"><sl-option value="c-7">Row C, seat 7</sl-option><sl-option value="c-8">Row C, seat 8</sl-option><sl-option value="d-1">Row D, seat 1</sl-option></sl-select></div>
<div class="actions"><sl-button variant="primary">Add to wallet</sl-button><sl-button>Transfer</sl-button></div></sl-card>`,
  });
}

export function bookingDialogPage(): string {
  return wcDoc({
    title: 'Your stay — Casa Azul Hotels',
    brand: 'Casa Azul Hotels',
    body: `${slCrumbs('Trips', 'M3RT8Z')}
<div class="heading"><h1>Casa Azul Porto</h1><sl-badge variant="success" pill>Confirmed</sl-badge></div>
<sl-card><div class="kv"><span class="k">Booking reference</span><span>M3RT8Z</span><span class="k">Check-in</span><span>Mon 5 August 2024</span><span class="k">Nights</span><span>3</span><span class="k">Total</span><span>€486.00</span></div>
<div class="actions"><sl-button>Change dates</sl-button><sl-button variant="danger" outline>Cancel booking</sl-button></div></sl-card>
<sl-dialog label="Cancel booking M3RT8Z?" open>Free cancellation ends in <strong class="js-cd">23:59:59</strong>. After that, the first night is charged.
<sl-button slot="footer">Keep booking</sl-button><sl-button slot="footer" variant="danger">Yes, cancel</sl-button></sl-dialog>`,
    module: `let s=86399;setInterval(()=>{s=s>0?s-1:86399;const p=(n)=>String(n).padStart(2,'0');document.querySelector('.js-cd').textContent=p(Math.floor(s/3600))+':'+p(Math.floor(s/60)%60)+':'+p(s%60)},1000);`,
  });
}
