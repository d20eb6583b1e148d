import { slCrumbs, wcDoc } from './doc.ts';

/** Account pages: a subscription switch, an invoice in tabs, a bank account with a checkbox setting. */

export function subscriptionSwitchPage(): string {
  return wcDoc({
    title: 'Subscription SUB-4402 — Streamly',
    brand: 'Streamly',
    body: `${slCrumbs('Account', 'Subscriptions', 'SUB-4402')}
<div class="heading"><h1>Premium Family plan</h1><sl-badge variant="success" pill>Active</sl-badge></div>
<sl-card><div class="kv"><span class="k">Subscription</span><span>SUB-4402</span><span class="k">Next charge</span><span>€17.99 on 1 July 2024</span><span class="k">Members</span><span>4 of 6</span></div>
<div class="actions"><sl-switch checked>Auto-renew</sl-switch></div>
<div class="actions"><sl-button>Change plan</sl-button><sl-button variant="danger" outline>Cancel subscription</sl-button></div></sl-card>`,
  });
}

export function invoiceTabsPage(): string {
  return wcDoc({
    title: 'INV-2024-207 | Billing | Cloudnest',
    brand: 'Cloudnest',
    body: `${slCrumbs('Billing', 'Invoices', 'INV-2024-207')}
<div class="heading"><h1>Invoice INV-2024-207</h1><sl-badge variant="success">Paid</sl-badge></div>
<sl-tab-group><sl-tab slot="nav" panel="summary">Summary</sl-tab><sl-tab slot="nav" panel="payments">Payments</sl-tab><sl-tab slot="nav" panel="history">History</sl-tab>
<sl-tab-panel name="summary"><div class="kv"><span class="k">Amount</span><span><sl-format-number type="currency" currency="EUR" value="860" lang="en-IE"></sl-format-number></span><span class="k">Issued</span><span>1 June 2024</span><span class="k">Paid on</span><span>9 June 2024</span></div></sl-tab-panel>
<sl-tab-panel name="payments">SEPA transfer €860.00 received 9 June 2024 (ref. CN-PAY-77120).</sl-tab-panel>
<sl-tab-panel name="history">Created 1 June · Sent 1 June · Paid 9 June</sl-tab-panel></sl-tab-group>
<div class="actions"><sl-button>Download PDF</sl-button></div>`,
  });
}

export function accountPaperlessPage(): string {
  return wcDoc({
    title: 'Savings ACC-22019 — Crestline Bank',
    brand: 'Crestline Bank',
    css: '.bal{font-size:30px;font-weight:700}',
    body: `${slCrumbs('Accounts', 'Savings ACC-22019')}
<div class="heading"><h1>Easy Saver</h1><sl-badge variant="success" pill>Active</sl-badge></div>
<p>Balance as of <sl-format-date class="js-now" hour="numeric" minute="numeric" second="numeric" lang="en-GB"></sl-format-date></p>
<sl-card><div class="kv"><span class="k">Account</span><span>ACC-22019</span><span class="k">Balance</span><span class="bal"><sl-format-number type="currency" currency="GBP" value="12840.55" lang="en-GB"></sl-format-number></span><span class="k">Interest rate</span><span>4.1% AER</span></div>
<div class="actions"><sl-checkbox>Paperless statements</sl-checkbox></div>
<div class="actions"><sl-button variant="primary">Transfer money</sl-button></div></sl-card>`,
    module: `const now=document.querySelector('.js-now');const tick=()=>{now.date=new Date()};tick();setInterval(tick,1000);`,
  });
}
