/** @jsxImportSource react */
import { Button, Card, CardContent, Chip, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

/** An order page under a cookie-consent modal: everything behind the backdrop is covered until the person answers. */
export function ModalCover() {
  useDocumentTitle('Order ORD-2017 · Pinewood Home');
  const [open, setOpen] = useState(true);
  return (
    <Shell brand="Pinewood Home" nav={['Shop', 'Orders']}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Order ORD-2017
        </Typography>
        <Chip label="Delivered" color="success" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Typography>Oak side table × 1 · delivered 27 Nov 2026 to the front door</Typography>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Write a review</Button>
        <Button variant="outlined">Start a return</Button>
      </Stack>
      <Dialog open={open} aria-labelledby="consent-title">
        <DialogTitle id="consent-title">We value your privacy</DialogTitle>
        <DialogContent>
          <DialogContentText>We use cookies to keep you signed in, measure traffic and show relevant offers. Choose which ones we may use.</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Manage preferences</Button>
          <Button variant="contained" onClick={() => setOpen(false)}>
            Accept all
          </Button>
        </DialogActions>
      </Dialog>
    </Shell>
  );
}
