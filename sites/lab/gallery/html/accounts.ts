import { crumbs, htmlDoc } from './doc.ts';

/** Back-office and account pages: a bank account with a live clock, an invoice, a support case. */

export function bankAccountPage(): string {
  const rows = [
    ['28 Mar', 'Card payment — GROCER & SONS', '−42.18', '3,218.40'],
    ['27 Mar', 'Transfer from ACC-10334 (Savings)', '+500.00', '3,260.58'],
    ['26 Mar', 'Direct debit — CITY POWER', '−88.90', '2,760.58'],
    ['25 Mar', 'Card payment — RAILWAYS', '−23.40', '2,849.48'],
  ];
  return htmlDoc({
    title: 'Everyday Account ACC-88213 · Harbor Bank',
    brand: 'Harbor Bank',
    css: '.clock{font-variant-numeric:tabular-nums}.bal{font-size:30px;font-weight:700}',
    body: `<div class="muted" style="text-align:right">Last updated <span class="clock js-clock">--:--:--</span></div>
${crumbs('Accounts', 'Everyday Account')}
<div class="panel"><div class="ttl"><h1>Everyday Account</h1><span class="pill pill--green">Active</span></div>
<div class="row" style="margin-top:10px"><div class="col"><dl class="kv"><dt>Account number</dt><dd>ACC-88213</dd><dt>Sort code</dt><dd>20-45-77</dd><dt>Overdraft limit</dt><dd>£500.00</dd></dl></div>
<div class="col"><div class="muted">Available balance</div><div class="bal">£3,218.40</div></div></div></div>
<div class="panel"><h2 style="font-size:17px;margin:0 0 8px">Recent transactions</h2>
<table class="tbl"><thead><tr><th>Date</th><th>Description</th><th class="num">Amount (£)</th><th class="num">Balance (£)</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${r[0]}</td><td>${r[1]}</td><td class="num">${r[2]}</td><td class="num">${r[3]}</td></tr>`).join('')}
</tbody></table><p><button class="btn" type="button">Download statement</button> <button class="btn btn--primary" type="button">Make a payment</button></p></div>`,
    script: `(function(){function t(){document.querySelector('.js-clock').textContent=new Date().toLocaleTimeString('en-GB')}t();setInterval(t,1000)})();`,
  });
}

export function invoicePage(): string {
  return htmlDoc({
    title: 'Invoice INV-2024-118 — Brightwave Hosting',
    brand: 'Brightwave Hosting',
    body: `${crumbs('Billing', 'Invoices', 'INV-2024-118')}
<div class="panel"><div class="ttl"><h1>Invoice INV-2024-118</h1><span class="pill pill--red">Overdue</span></div>
<div class="row" style="margin-top:12px"><div class="col"><dl class="kv"><dt>Issued</dt><dd>1 May 2024</dd><dt>Due date</dt><dd>15 May 2024</dd><dt>Amount due</dt><dd>€1,240.00</dd><dt>Billed to</dt><dd>Acme Studio GmbH</dd></dl></div>
<div class="col"><div class="muted">Usage this period</div>
<svg width="300" height="120" viewBox="0 0 300 120" role="img" aria-label="Monthly bandwidth"><rect x="10" y="60" width="40" height="50" fill="#8fb8de"/><rect x="70" y="40" width="40" height="70" fill="#8fb8de"/><rect x="130" y="20" width="40" height="90" fill="#8fb8de"/><rect x="190" y="30" width="40" height="80" fill="#0b5cad"/><text x="190" y="24" font-size="11">4.1 TB</text></svg></div></div>
<table class="tbl" style="margin-top:10px"><thead><tr><th>Description</th><th class="num">Amount</th></tr></thead><tbody><tr><td>Dedicated server D-16 (April)</td><td class="num">€990.00</td></tr><tr><td>Bandwidth overage</td><td class="num">€250.00</td></tr></tbody></table>
<p><button class="btn btn--primary" type="button">Pay invoice</button> <a class="btn" href="#">Download PDF</a></p></div>`,
  });
}

/** A support case: the status is a chip, the conversation has a live "typing" region. */
export function supportCasePage(): string {
  return htmlDoc({
    title: 'Case CS-20931: Router drops Wi-Fi every evening — Support',
    brand: 'Lumen Support',
    css: '.chip{display:inline-flex;align-items:center;gap:6px;border:1px solid #d0d7de;border-radius:16px;padding:2px 10px;font-size:13px}.chip i{width:8px;height:8px;border-radius:50%;background:#1a7f37;display:inline-block}.msg{border-top:1px solid #eaeef2;padding:10px 0}',
    body: `${crumbs('Support', 'My cases', 'CS-20931')}
<div class="panel"><div class="ttl"><div class="h1">Router drops Wi-Fi every evening</div><span class="chip"><i></i>Open</span></div>
<p class="muted">Case CS-20931 · opened 3 June 2024 · priority Normal</p>
<div class="msg"><b>You</b> · 3 June<br>Since the firmware update the Wi-Fi disconnects around 8pm each day.</div>
<div class="msg"><b>Priya (Lumen)</b> · 4 June<br>Thanks — could you send us the router log from Settings › Diagnostics?</div>
<div class="muted js-typing" aria-live="polite"></div>
<textarea aria-label="Reply" style="width:100%;height:70px;margin-top:8px"></textarea>
<p><button class="btn btn--primary" type="button">Send reply</button> <button class="btn" type="button">Close case</button></p></div>`,
    script: `(function(){var on=false;setInterval(function(){on=!on;document.querySelector('.js-typing').textContent=on?'Priya is typing…':''},2500)})();`,
  });
}
