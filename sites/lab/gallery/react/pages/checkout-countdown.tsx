/** @jsxImportSource react */
import { Alert, Box, Button, Card, CardContent, Chip, IconButton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, money, useDocumentTitle, useTick } from '../shell.tsx';

const PROMOS = ['Free shipping on orders over €50', 'Members save 10% today', 'New: Trail Runner 3 in forest green', 'Buy 3 pairs of socks, pay for 2'];
const UNIT_PRICE = 24.9;
const OFFER_SECONDS = 5 * 60;

function mmss(seconds: number): string {
  const s = Math.max(0, seconds);
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** Checkout with a quantity stepper (a real change), a countdown and a rotating promo banner (churn). */
export function CheckoutCountdown() {
  useDocumentTitle('Checkout · Northwind Outfitters');
  const seconds = useTick(1000);
  const [qty, setQty] = useState(1);
  const promo = PROMOS[Math.floor(seconds / 3) % PROMOS.length];
  return (
    <Shell brand="Northwind Outfitters">
      <Alert severity="info" icon={false} sx={{ mb: 2, justifyContent: 'center' }}>
        {promo}
      </Alert>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h4" component="h1">
          Checkout for ORD-2004
        </Typography>
        <Chip label="Awaiting payment" color="warning" size="small" />
      </Stack>
      <Typography color="error" sx={{ mb: 2, fontWeight: 600 }}>
        Offer ends in {mmss(OFFER_SECONDS - 1 - (seconds % OFFER_SECONDS))}
      </Typography>
      <Card>
        <CardContent>
          <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
            <Box>
              <Typography variant="subtitle1">Insulated bottle, 750 ml</Typography>
              <Typography variant="body2" color="text.secondary">
                {money(UNIT_PRICE)} each
              </Typography>
            </Box>
            <Stack direction="row" sx={{ alignItems: 'center' }}>
              <IconButton aria-label="Decrease quantity" onClick={() => setQty((q) => Math.max(1, q - 1))} disabled={qty <= 1}>
                <span aria-hidden="true">−</span>
              </IconButton>
              <Typography sx={{ minWidth: 32, textAlign: 'center' }} aria-label="Quantity">
                {qty}
              </Typography>
              <IconButton aria-label="Increase quantity" onClick={() => setQty((q) => Math.min(9, q + 1))}>
                <span aria-hidden="true">+</span>
              </IconButton>
            </Stack>
          </Stack>
          <Typography variant="h6" sx={{ mt: 2 }}>
            Order total {money(qty * UNIT_PRICE)}
          </Typography>
        </CardContent>
      </Card>
      <Button variant="contained" size="large" sx={{ mt: 2 }}>
        Pay now
      </Button>
    </Shell>
  );
}
