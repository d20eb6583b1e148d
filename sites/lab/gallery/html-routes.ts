import { HttpError, sendHtml, sendJson, type Router } from '../../http.ts';
import { bankAccountPage, invoicePage, supportCasePage } from './html/accounts.ts';
import { adFramePage, adminTablePage, newsPage, productPage } from './html/catalog.ts';
import { cookieBannerPage, offCanvasPage } from './html/hazards.ts';
import { NETWORK_ORDER, cartCanvasPage, checkoutQuantityPage, guestCheckoutPage, orderJsonLdPage, orderNetworkPage, orderNumberLabelPage, orderProsePage } from './html/orders.ts';
import { bookingPage, ticketSeatPage } from './html/travel.ts';
import { clickableTextPage, coveredControlsPage, jqueryUiSearchPage, nativeTripPage, svgFloorPlanPage, ticketsInPlacePage } from './html/widgets.ts';

/** Slug → page. Paths starting with `_` are the pages' own resources (an ad frame, an API), never slugs. */
const HTML_PAGES: Readonly<Record<string, () => string>> = {
  'h-order-jsonld': orderJsonLdPage,
  'h-checkout-quantity': checkoutQuantityPage,
  'h-cart-canvas-total': cartCanvasPage,
  'h-order-network-mismatch': orderNetworkPage,
  'h-order-prose-cancelled': orderProsePage,
  'h-guest-checkout-status': guestCheckoutPage,
  'h-order-number-label': orderNumberLabelPage,
  'h-bank-account': bankAccountPage,
  'h-invoice-overdue': invoicePage,
  'h-support-case': supportCasePage,
  'h-booking-reference': bookingPage,
  'h-ticket-seat': ticketSeatPage,
  'h-product-trail-runner': productPage,
  'h-news-ads': newsPage,
  'h-admin-orders': adminTablePage,
  'h-cookie-banner': cookieBannerPage,
  'h-order-offcanvas': offCanvasPage,
  'h-jqui-hotel-search': jqueryUiSearchPage,
  'h-native-trip': nativeTripPage,
  'h-clickable-text': clickableTextPage,
  'h-covered-controls': coveredControlsPage,
  'h-svg-floor-plan': svgFloorPlanPage,
  'h-tickets-in-place': ticketsInPlacePage,
};

/** The gallery's html pages under `/gallery/html/<slug>` (see label.ts). */
export function mountHtmlGallery(router: Router): void {
  router.get('/gallery/html/_ad', (ctx) => sendHtml(ctx.res, 200, adFramePage()));
  router.get('/gallery/html/_api/orders/:id', (ctx) => {
    if (ctx.params.id !== NETWORK_ORDER.id) throw new HttpError(404, 'NOT_FOUND', `No order ${ctx.params.id ?? ''}.`);
    sendJson(ctx.res, 200, NETWORK_ORDER);
  });
  router.get('/gallery/html/:slug', (ctx) => {
    const render = HTML_PAGES[ctx.params.slug ?? ''];
    if (!render) throw new HttpError(404, 'NOT_FOUND', `No gallery page ${ctx.params.slug ?? ''}.`);
    sendHtml(ctx.res, 200, render());
  });
}
