/** @jsxImportSource react */
import { Alert, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

/** The chip is rendered from a stale client cache; the page's own fetch says otherwise (planted `dom_state_disagrees_with_network`). */
const CACHED_STATUS = 'Shipped';

export function StatusMismatch() {
  useDocumentTitle('Order ORD-2021 · Northwind Outfitters');
  const [synced, setSynced] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch('/gallery/react/api/orders/ORD-2021', { signal: controller.signal, headers: { accept: 'application/json' } })
      .then((r) => r.json() as Promise<{ id: string }>)
      .then((order) => setSynced(order.id))
      .catch(() => setSynced(null));
    return () => controller.abort();
  }, []);
  return (
    <Shell brand="Northwind Outfitters" nav={['Shop', 'Orders', 'Account']}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Order ORD-2021
        </Typography>
        <Chip label={CACHED_STATUS} color="info" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Typography>Rain shell jacket, size M × 1</Typography>
          <Typography variant="body2" color="text.secondary">
            {synced ? `Last synced order ${synced}` : 'Syncing…'}
          </Typography>
        </CardContent>
      </Card>
      <Alert severity="info" sx={{ mt: 2 }}>
        Questions about your delivery? Our team answers within a day.
      </Alert>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Track package</Button>
        <Button variant="outlined">Contact support</Button>
      </Stack>
    </Shell>
  );
}
