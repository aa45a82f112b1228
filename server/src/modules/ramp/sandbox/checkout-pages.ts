/**
 * The sandbox provider's own checkout pages (its origin, not ours): a buy with a card form, a PIX
 * code or a UPI id; a sell confirmation. Plain server-rendered HTML, every value escaped; the
 * banner says SANDBOX on every page.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>${head}
<style>
body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d1d1f}
.banner{background:#b45309;color:#fff;text-align:center;font-weight:700;padding:6px;letter-spacing:.08em}
main{max-width:420px;margin:0 auto;padding:16px}
.card{background:#fff;border-radius:12px;padding:16px;margin-bottom:12px}
label{display:block;font-size:14px;margin:10px 0 4px}
input{width:100%;box-sizing:border-box;font-size:16px;padding:10px;border:1px solid #c7c7cc;border-radius:8px}
button{width:100%;font-size:17px;padding:12px;border:0;border-radius:10px;background:#5b21b6;color:#fff;margin-top:14px}
.row{display:flex;justify-content:space-between;margin:6px 0}.muted{color:#6b7280;font-size:13px;word-break:break-all}
.code{font-family:monospace;background:#f3f4f6;padding:8px;border-radius:6px;word-break:break-all}
</style></head><body><div class="banner" data-testid="sandbox-banner">SANDBOX · MoonPay test checkout</div>
<main>${body}</main></body></html>`;
}

function rows(items: [string, string][]): string {
  return items.map(([k, v]) => `<div class="row"><span>${esc(k)}</span><strong>${esc(v)}</strong></div>`).join('');
}

export interface BuyPageInput {
  query: string;
  fiat: string;
  total: string;
  crypto: string;
  coin: string;
  fee: string;
  wallet: string;
  method: string;
}

function methodFields(method: string, total: string, fiat: string): string {
  if (method === 'pix_instant_payment') {
    const code = `00020126580014BR.GOV.BCB.PIX0136sandbox-moonpay5204000053039865406${total}5802BR5913MOONPAY TEST`;
    return `<p>Pay ${esc(fiat)} ${esc(total)} by PIX with this code, then confirm:</p>
<p class="code" data-testid="pix-code">${esc(code)}</p><button data-testid="checkout-pay">I have paid</button>`;
  }
  if (method === 'upi_instant_payment') {
    return `<label for="upi">UPI id</label><input id="upi" name="upi" required pattern="[A-Za-z0-9._-]{2,64}@[A-Za-z]{2,32}" placeholder="name@bank">
<button data-testid="checkout-pay">Pay ${esc(fiat)} ${esc(total)}</button>`;
  }
  return `<label for="card">Card number</label><input id="card" name="card" inputmode="numeric" required autocomplete="cc-number" pattern="[0-9 ]{12,23}">
<label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" required pattern="(0[1-9]|1[0-2])/[0-9]{2}" autocomplete="cc-exp">
<label for="cvc">CVC</label><input id="cvc" name="cvc" required pattern="[0-9]{3,4}" inputmode="numeric" autocomplete="cc-csc">
<p class="muted">Test cards: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.</p>
<button data-testid="checkout-pay">Pay ${esc(fiat)} ${esc(total)}</button>`;
}

export function buyPage(p: BuyPageInput): string {
  return page(
    'Buy crypto',
    `<div class="card"><h1>Buy ${esc(p.coin)}</h1>${rows([
      ['You pay', `${p.fiat} ${p.total}`],
      ['Fees included', `${p.fiat} ${p.fee}`],
      ['You get', `${p.crypto} ${p.coin}`],
    ])}<p class="muted">To wallet ${esc(p.wallet)}</p></div>
<form class="card" method="post" action="/buy/pay"><input type="hidden" name="q" value="${esc(p.query)}">
${methodFields(p.method, p.total, p.fiat)}</form>`,
  );
}

export interface SellPageInput {
  query: string;
  coin: string;
  crypto: string;
  fiat: string;
  receive: string;
  payout: string;
}

export function sellPage(p: SellPageInput): string {
  return page(
    'Sell crypto',
    `<div class="card"><h1>Sell ${esc(p.coin)}</h1>${rows([
      ['You sell', `${p.crypto} ${p.coin}`],
      ['You receive', `${p.fiat} ${p.receive}`],
      ['Paid to', p.payout],
    ])}</div><form class="card" method="post" action="/sell/confirm"><input type="hidden" name="q" value="${esc(p.query)}">
<p class="muted">Your wallet sends the coins to a MoonPay deposit address next.</p>
<button name="outcome" value="confirm" data-testid="checkout-confirm">Confirm sell</button>
<p class="muted">Sandbox tests: a sale cancelled here (before the wallet sends anything), or one whose payout the bank rejects after the coins arrived (they are sent back to the wallet).</p>
<button name="outcome" value="cancel" data-testid="checkout-cancel">Cancel sell</button>
<button name="outcome" value="reject_payout" data-testid="checkout-confirm-reject">Confirm; the bank rejects the payout</button></form>`,
  );
}

export function donePage(message: string, redirect: string | null): string {
  const meta = redirect ? `<meta http-equiv="refresh" content="1;url=${esc(redirect)}">` : '';
  const link = redirect
    ? `<p><a data-testid="checkout-return" href="${esc(redirect)}">Return to the wallet</a></p>`
    : '';
  return page('Done', `<div class="card"><h1 data-testid="checkout-done">${esc(message)}</h1>${link}</div>`, meta);
}

export const errorPage = (message: string) =>
  page('Error', `<div class="card"><h1 data-testid="checkout-error">${esc(message)}</h1></div>`);
