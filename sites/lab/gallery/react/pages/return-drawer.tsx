/** @jsxImportSource react */
import { Box, Button, Chip, Divider, Drawer, List, ListItemButton, ListItemText, Stack, Step, StepLabel, Stepper, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

const NAV = ['Overview', 'Returns', 'Refunds', 'Settings'];

/**
 * A return request with a side Drawer for its details. A "Legacy export" button sits 10 000 px
 * off-canvas and a "Bulk relabel" button is clipped to nothing: nobody can reach either.
 */
export function ReturnDrawer() {
  useDocumentTitle('Return RMA-30418 · Pinewood Home');
  const [open, setOpen] = useState(false);
  return (
    <Shell brand="Pinewood Home" nav={['Shop', 'Orders']}>
      <Stack direction="row" spacing={3}>
        <Box component="nav" aria-label="Account" sx={{ width: 200, flexShrink: 0 }}>
          <List dense>
            {NAV.map((n) => (
              <ListItemButton key={n} selected={n === 'Returns'}>
                <ListItemText primary={n} />
              </ListItemButton>
            ))}
          </List>
        </Box>
        <Box sx={{ flexGrow: 1 }}>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
            <Typography variant="h4" component="h1">
              Return RMA-30418
            </Typography>
            <Chip label="Approved" color="success" size="small" />
          </Stack>
          <Stepper activeStep={1} alternativeLabel sx={{ mb: 3 }}>
            {['Requested', 'Approved', 'Received', 'Refunded'].map((s) => (
              <Step key={s}>
                <StepLabel>{s}</StepLabel>
              </Step>
            ))}
          </Stepper>
          <Typography sx={{ mb: 2 }}>Oak side table from order ORD-2017 · reason: arrived damaged</Typography>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" onClick={() => setOpen(true)}>
              View return details
            </Button>
            <Button variant="outlined">Print return label</Button>
          </Stack>
          <Button sx={{ position: 'absolute', left: -10000, top: 0 }}>Legacy export</Button>
          <Button sx={{ position: 'absolute', width: '1px', height: '1px', p: 0, m: '-1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', clipPath: 'inset(50%)', minWidth: 0, border: 0 }}>
            Bulk relabel
          </Button>
        </Box>
      </Stack>
      <Drawer anchor="right" open={open} onClose={() => setOpen(false)}>
        <Box sx={{ width: 340, p: 3 }} role="region" aria-label="Return details">
          <Typography variant="h6">Return details</Typography>
          <Divider sx={{ my: 2 }} />
          <Typography>Carrier: DPD · drop-off by 10 Dec 2026</Typography>
          <Typography>Refund: €149.00 to Visa •••• 4242</Typography>
          <Button sx={{ mt: 2 }} onClick={() => setOpen(false)}>
            Close details
          </Button>
        </Box>
      </Drawer>
    </Shell>
  );
}
