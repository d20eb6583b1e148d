/** @jsxImportSource react */
import { Button, Card, CardContent, Stack, Step, StepLabel, Stepper, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

const STEPS = ['Ordered', 'Shipped', 'Out for delivery', 'Delivered'];

/** Package tracking: the order only as "Order number: 2031", the state only as the active Stepper step. */
export function OrderTracking() {
  useDocumentTitle('Track your package · Parcelio');
  const [tab, setTab] = useState(0);
  return (
    <Shell brand="Parcelio" nav={['Track', 'Send', 'Help']}>
      <Typography variant="h4" component="h1" gutterBottom>
        Track your package
      </Typography>
      <Typography sx={{ mb: 3 }}>Order number: 2031</Typography>
      <Stepper activeStep={2} sx={{ mb: 3 }}>
        {STEPS.map((s) => (
          <Step key={s}>
            <StepLabel>{s}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label="Tracking sections">
        <Tab label="Latest update" />
        <Tab label="History" />
      </Tabs>
      <Card sx={{ mt: 2 }}>
        <CardContent>
          {tab === 0 ? (
            <Typography>Your parcel is on the van and will arrive today between 14:00 and 16:00.</Typography>
          ) : (
            <Typography>1 Dec 07:12 loaded on van · 30 Nov 22:40 arrived at depot Köln · 29 Nov 18:05 handed to carrier</Typography>
          )}
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Change delivery</Button>
        <Button variant="outlined">Leave with a neighbour</Button>
      </Stack>
    </Shell>
  );
}
