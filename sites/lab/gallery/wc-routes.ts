import { HttpError, sendHtml, type Router } from '../../http.ts';
import { accountPaperlessPage, invoiceTabsPage, subscriptionSwitchPage } from './wc/accounts.ts';
import { productGalaxyPage, promoCarouselPage } from './wc/catalog.ts';
import { checkoutQuantityPage, closedShadowOrderPage, orderShippedPage } from './wc/orders.ts';
import { mountShoelaceAssets } from './wc/shoelace-assets.ts';
import { bookingDialogPage, ticketSeatPage } from './wc/travel.ts';

/** Slug → page; `_shoelace` (the component library's files) is never a slug. */
const WC_PAGES: Readonly<Record<string, () => string>> = {
  'w-order-shipped': orderShippedPage,
  'w-checkout-quantity': checkoutQuantityPage,
  'w-order-closed-shadow': closedShadowOrderPage,
  'w-subscription-switch': subscriptionSwitchPage,
  'w-invoice-tabs': invoiceTabsPage,
  'w-account-paperless': accountPaperlessPage,
  'w-ticket-seat': ticketSeatPage,
  'w-booking-dialog': bookingDialogPage,
  'w-product-galaxy': productGalaxyPage,
  'w-promo-carousel': promoCarouselPage,
};

/** The gallery's wc pages under `/gallery/wc/<slug>` (see label.ts), and Shoelace under `/gallery/wc/_shoelace/`. */
export function mountWcGallery(router: Router): void {
  mountShoelaceAssets(router);
  router.get('/gallery/wc/:slug', (ctx) => {
    const render = WC_PAGES[ctx.params.slug ?? ''];
    if (!render) throw new HttpError(404, 'NOT_FOUND', `No gallery page ${ctx.params.slug ?? ''}.`);
    sendHtml(ctx.res, 200, render());
  });
}
