/** The React gallery's pages: the server answers `/gallery/react/<slug>` for these, the SPA routes on them. */
export const REACT_GALLERY_SLUGS = [
  'r-order-detail',
  'r-checkout-countdown',
  'r-cart-virtual',
  'r-product-trail-runner',
  'r-bank-account',
  'r-ticket-seats',
  'r-admin-users',
  'r-booking-hotel',
  'r-invoice-canvas',
  'r-modal-cover',
  'r-return-drawer',
  'r-status-mismatch',
  'r-autosave-live',
  'r-subscription-settings',
  'r-dashboard',
  'r-order-tracking',
  'r-order-title-only',
  'r-workspace-preferences',
] as const;

export type ReactGallerySlug = (typeof REACT_GALLERY_SLUGS)[number];

/** The order the status-mismatch page fetches; the server's JSON disagrees with what its chip shows. */
export const MISMATCH_ORDER = { id: 'ORD-2021', status: 'cancelled', cancelled_at: '2026-11-28T09:14:00Z', refund: { amount: 84.5, currency: 'EUR' } } as const;

/** The React + MUI widget pages (issue 26), served at `/widgets/<slug>` by the same SPA. */
export const REACT_WIDGET_SLUGS = ['mui-autocomplete', 'mui-slider', 'mui-tabs', 'mui-menu', 'mui-accordion', 'mui-tree', 'mui-date'] as const;

export type ReactWidgetSlug = (typeof REACT_WIDGET_SLUGS)[number];
