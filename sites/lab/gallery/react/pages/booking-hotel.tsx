/** @jsxImportSource react */
import { Button, Card, CardContent, Chip, Divider, Grid, Stack, Typography } from '@mui/material';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

/** A hotel reservation: the id only as "Booking reference: K7QX2P", the status as a Chip. */
export function BookingHotel() {
  useDocumentTitle('Your stay at Hotel Lindenhof · Roomly');
  return (
    <Shell brand="Roomly" nav={['Stays', 'Trips', 'Help']}>
      <Typography variant="h4" component="h1" gutterBottom>
        Your stay at Hotel Lindenhof
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography>
          Booking reference: <strong>K7QX2P</strong>
        </Typography>
        <Chip label="Confirmed" color="success" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Grid container spacing={2}>
            <Grid size={6}>
              <Typography variant="overline">Check-in</Typography>
              <Typography>Fri 19 Dec 2026, from 15:00</Typography>
            </Grid>
            <Grid size={6}>
              <Typography variant="overline">Check-out</Typography>
              <Typography>Mon 22 Dec 2026, until 11:00</Typography>
            </Grid>
          </Grid>
          <Divider sx={{ my: 2 }} />
          <Typography>Deluxe double room · 2 adults · breakfast included</Typography>
          <Typography variant="h6" sx={{ mt: 1 }}>
            Total {money(486)} · paid at the hotel
          </Typography>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Modify booking</Button>
        <Button variant="outlined" color="error">
          Cancel booking
        </Button>
        <Button>Contact the hotel</Button>
      </Stack>
    </Shell>
  );
}
