const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const esc = (value: unknown) => String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** One HTML page in the plain style of Stripe's hosted pages (no external assets: works offline). */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
  body { font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, sans-serif; background: #f6f9fc; color: #30313d; margin: 0; }
  main { max-width: 480px; margin: 40px auto; background: #fff; border-radius: 8px; box-shadow: 0 2px 8px rgba(0,0,0,.08); padding: 28px; }
  h1 { font-size: 20px; margin: 0 0 16px; } h2 { font-size: 16px; margin: 20px 0 8px; }
  label { display: block; font-size: 13px; margin: 12px 0 4px; color: #6d6e78; }
  input { width: 100%; box-sizing: border-box; padding: 10px; border: 1px solid #e0e0e6; border-radius: 6px; font-size: 15px; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
  button, .button { display: inline-block; margin-top: 16px; width: 100%; padding: 12px; border: 0; border-radius: 6px; background: #635bff; color: #fff; font-size: 15px; cursor: pointer; text-align: center; text-decoration: none; box-sizing: border-box; }
  button.secondary, .button.secondary { background: #fff; color: #635bff; border: 1px solid #635bff; }
  button.danger { background: #df1b41; }
  .error { color: #df1b41; background: #fff0f3; padding: 10px; border-radius: 6px; margin: 12px 0; }
  .notice { color: #0a6b3d; background: #eafaf1; padding: 10px; border-radius: 6px; margin: 12px 0; }
  .muted { color: #6d6e78; font-size: 13px; } .total { font-size: 28px; font-weight: 600; margin: 8px 0 16px; }
  .line { display: flex; justify-content: space-between; padding: 6px 0; border-bottom: 1px solid #f0f0f3; }
  .card { border: 1px solid #e0e0e6; border-radius: 8px; padding: 14px; margin: 12px 0; }
  .test-banner { background: #ffde92; color: #5d4100; font-size: 12px; text-align: center; padding: 4px; }
</style></head>
<body><div class="test-banner">TEST MODE · stripe-local</div><main>${body}</main></body></html>`;
}

/** The card fields of the hosted pages (test cards: 4242 4242 4242 4242, 4000 0025 0000 3155, ...). */
export function cardFields(email?: { value: string | null; editable: boolean }): string {
  return `${
    email
      ? `<label for="email">Email</label><input id="email" name="email" type="email" data-testid="checkout-email" value="${esc(email.value ?? '')}" ${email.editable ? 'required' : 'readonly'}>`
      : ''
  }
  <label for="cardNumber">Card information</label>
  <input id="cardNumber" name="cardNumber" data-testid="card-number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234" required>
  <div class="row">
    <div><label for="cardExpiry">Expiry</label><input id="cardExpiry" name="cardExpiry" data-testid="card-expiry" placeholder="MM / YY" autocomplete="cc-exp" required></div>
    <div><label for="cardCvc">CVC</label><input id="cardCvc" name="cardCvc" data-testid="card-cvc" placeholder="CVC" autocomplete="cc-csc" required></div>
  </div>
  <label for="billingName">Cardholder name</label>
  <input id="billingName" name="billingName" data-testid="billing-name" autocomplete="cc-name">
  <label for="postalCode">ZIP</label>
  <input id="postalCode" name="postalCode" data-testid="postal-code" autocomplete="postal-code">`;
}

/** "12 / 34", "12/2034" -> month and year. */
export function parseExpiry(text: string): { month: number; year: number } {
  const [m, y] = text.split('/').map((s) => Number(s.trim()));
  return { month: m || 0, year: y === undefined || Number.isNaN(y) ? 0 : y < 100 ? 2000 + y : y };
}
