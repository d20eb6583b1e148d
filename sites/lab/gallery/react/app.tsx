/** @jsxImportSource react */
import { Link, List, ListItem, Typography } from '@mui/material';
import { useEffect, useState, type ComponentType, type MouseEvent } from 'react';
import { AdminUsers } from './pages/admin-users.tsx';
import { AutosaveLive } from './pages/autosave-live.tsx';
import { BankAccount } from './pages/bank-account.tsx';
import { BookingHotel } from './pages/booking-hotel.tsx';
import { CartVirtual } from './pages/cart-virtual.tsx';
import { CheckoutCountdown } from './pages/checkout-countdown.tsx';
import { Dashboard } from './pages/dashboard.tsx';
import { InvoiceCanvas } from './pages/invoice-canvas.tsx';
import { ModalCover } from './pages/modal-cover.tsx';
import { OrderDetail } from './pages/order-detail.tsx';
import { OrderTitleOnly } from './pages/order-title-only.tsx';
import { OrderTracking } from './pages/order-tracking.tsx';
import { ProductTrailRunner } from './pages/product-trail-runner.tsx';
import { ReturnDrawer } from './pages/return-drawer.tsx';
import { StatusMismatch } from './pages/status-mismatch.tsx';
import { SubscriptionSettings } from './pages/subscription-settings.tsx';
import { TicketSeats } from './pages/ticket-seats.tsx';
import { WorkspacePreferences } from './pages/workspace-preferences.tsx';
import { Shell, useDocumentTitle } from './shell.tsx';
import { REACT_GALLERY_SLUGS, REACT_WIDGET_SLUGS, type ReactGallerySlug, type ReactWidgetSlug } from './slugs.ts';
import { MuiAccordionPage, MuiMenuPage, MuiTabsPage, MuiTreePage } from './widgets/disclosure.tsx';
import { MuiAutocompletePage, MuiDatePage, MuiSliderPage } from './widgets/inputs.tsx';

const PAGES: Record<ReactGallerySlug, ComponentType> = {
  'r-order-detail': OrderDetail,
  'r-checkout-countdown': CheckoutCountdown,
  'r-cart-virtual': CartVirtual,
  'r-product-trail-runner': ProductTrailRunner,
  'r-bank-account': BankAccount,
  'r-ticket-seats': TicketSeats,
  'r-admin-users': AdminUsers,
  'r-booking-hotel': BookingHotel,
  'r-invoice-canvas': InvoiceCanvas,
  'r-modal-cover': ModalCover,
  'r-return-drawer': ReturnDrawer,
  'r-status-mismatch': StatusMismatch,
  'r-autosave-live': AutosaveLive,
  'r-subscription-settings': SubscriptionSettings,
  'r-dashboard': Dashboard,
  'r-order-tracking': OrderTracking,
  'r-order-title-only': OrderTitleOnly,
  'r-workspace-preferences': WorkspacePreferences,
};

/** The widget lab's React pages (issue 26), at `/widgets/<slug>` on the same SPA. */
const WIDGETS: Record<ReactWidgetSlug, ComponentType> = {
  'mui-autocomplete': MuiAutocompletePage,
  'mui-slider': MuiSliderPage,
  'mui-tabs': MuiTabsPage,
  'mui-menu': MuiMenuPage,
  'mui-accordion': MuiAccordionPage,
  'mui-tree': MuiTreePage,
  'mui-date': MuiDatePage,
};

const PREFIX = '/gallery/react/';
const WIDGET_PREFIX = '/widgets/';

function widgetOf(pathname: string): ReactWidgetSlug | undefined {
  const slug = pathname.startsWith(WIDGET_PREFIX) ? pathname.slice(WIDGET_PREFIX.length).replace(/\/$/, '') : '';
  return (REACT_WIDGET_SLUGS as readonly string[]).includes(slug) ? (slug as ReactWidgetSlug) : undefined;
}

function slugOf(pathname: string): string {
  return pathname.startsWith(PREFIX) ? pathname.slice(PREFIX.length).replace(/\/$/, '') : '';
}

function isSlug(slug: string): slug is ReactGallerySlug {
  return (REACT_GALLERY_SLUGS as readonly string[]).includes(slug);
}

/** Client-side routing on the path, as SPAs do: links push history, back/forward re-render. */
export function App() {
  const [path, setPath] = useState(window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const navigate = (to: string) => {
    window.history.pushState(null, '', to);
    setPath(to);
  };
  const widget = widgetOf(path);
  if (widget) {
    const Widget = WIDGETS[widget];
    return <Widget />;
  }
  const slug = slugOf(path);
  if (isSlug(slug)) {
    const Page = PAGES[slug];
    return <Page key={slug} />;
  }
  return <GalleryIndex missing={slug} onOpen={navigate} />;
}

function GalleryIndex({ missing, onOpen }: { missing: string; onOpen: (to: string) => void }) {
  useDocumentTitle('React gallery');
  const open = (event: MouseEvent, to: string) => {
    event.preventDefault();
    onOpen(to);
  };
  return (
    <Shell brand="React gallery">
      {missing && <Typography color="error">No gallery page called “{missing}”.</Typography>}
      <Typography variant="h4" component="h1" gutterBottom>
        React + Material UI pages
      </Typography>
      <List>
        {REACT_GALLERY_SLUGS.map((s) => (
          <ListItem key={s}>
            <Link href={PREFIX + s} onClick={(e) => open(e, PREFIX + s)}>
              {s}
            </Link>
          </ListItem>
        ))}
      </List>
    </Shell>
  );
}
