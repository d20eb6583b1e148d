/**
 * The shop's browser script, served as `/assets/shop.js`. Plain ES2020, no build step.
 *
 * - a clock that ticks every second and a promo banner that rotates (churn without meaning);
 * - on an order page: fetches the status as JSON from `/api/orders/:id` ("Live status: …");
 * - draws the order summary (subtotal, shipping, tax, TOTAL) on a canvas from a small binary
 *   response, so the total has no text equivalent anywhere in the DOM.
 */
import { PROMOS } from './pages.ts';

export const SHOP_SCRIPT = `(() => {
  'use strict';
  const PROMOS = ${JSON.stringify(PROMOS)};

  const clock = document.getElementById('clock');
  if (clock) {
    const tick = () => { clock.textContent = new Date().toLocaleTimeString('en-GB', { hour12: false }); };
    tick();
    setInterval(tick, 1000);
  }

  const promo = document.getElementById('promo-banner');
  if (promo) {
    let index = 0;
    setInterval(() => {
      index = (index + 1) % PROMOS.length;
      promo.textContent = PROMOS[index];
    }, 4000);
  }

  const order = document.querySelector('[data-order-id]#order');
  if (!order) return;
  const orderId = order.getAttribute('data-order-id');

  const live = document.getElementById('live-status');
  fetch('/api/orders/' + encodeURIComponent(orderId), { headers: { accept: 'application/json' } })
    .then((res) => (res.ok ? res.json() : Promise.reject(new Error('HTTP ' + res.status))))
    .then((data) => {
      if (!live) return;
      live.textContent = 'Live status: ' + data.status_label;
      live.setAttribute('data-status', data.status);
    })
    .catch(() => { if (live) live.textContent = 'Live status: unavailable'; });

  const canvas = document.getElementById('order-total-canvas');
  if (!canvas || !canvas.getContext) return;
  fetch('/orders/' + encodeURIComponent(orderId) + '/summary.bin')
    .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error('HTTP ' + res.status))))
    .then((buffer) => draw(new DataView(buffer)))
    .catch(() => drawMessage('Summary unavailable'));

  function setup() {
    const ratio = window.devicePixelRatio || 1;
    const width = 380;
    const height = 160;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.width = width + 'px';
    canvas.style.height = height + 'px';
    const ctx = canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#fcfcfd';
    ctx.fillRect(0, 0, width, height);
    return { ctx, width, height };
  }

  function drawMessage(text) {
    const { ctx } = setup();
    ctx.fillStyle = '#8a929c';
    ctx.font = '14px system-ui, sans-serif';
    ctx.fillText(text, 16, 30);
  }

  function draw(view) {
    const subtotal = view.getUint32(0);
    const shipping = view.getUint32(4);
    const tax = view.getUint32(8);
    const total = view.getUint32(12);
    const money = (cents) => '$' + (cents / 100).toFixed(2);
    const { ctx, width } = setup();
    const rows = [['Subtotal', subtotal], ['Shipping', shipping], ['Sales tax (8%)', tax]];
    ctx.textBaseline = 'alphabetic';
    ctx.font = '15px system-ui, sans-serif';
    rows.forEach(([label, cents], i) => {
      const y = 32 + i * 26;
      ctx.fillStyle = '#5b6470';
      ctx.textAlign = 'left';
      ctx.fillText(label, 16, y);
      ctx.fillStyle = '#1d232b';
      ctx.textAlign = 'right';
      ctx.fillText(money(cents), width - 16, y);
    });
    ctx.strokeStyle = '#dde1e6';
    ctx.beginPath();
    ctx.moveTo(16, 110);
    ctx.lineTo(width - 16, 110);
    ctx.stroke();
    ctx.font = '700 20px system-ui, sans-serif';
    ctx.fillStyle = '#1d232b';
    ctx.textAlign = 'left';
    ctx.fillText('Total', 16, 140);
    ctx.textAlign = 'right';
    ctx.fillStyle = '${'#2f6f5e'}';
    ctx.fillText(money(total), width - 16, 140);
  }
})();
`;
