/** @jsxImportSource react */
import { Button, Card, CardContent, Chip, FormControl, InputLabel, MenuItem, Select, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

const SEATS = ['Row F · Seat 11', 'Row F · Seat 12', 'Row G · Seat 3', 'Row G · Seat 4'];

/** Event ticket with a seat chosen in a MUI Select (a real change to the ticket). */
export function TicketSeats() {
  useDocumentTitle('Your ticket · Stagepass');
  const [seat, setSeat] = useState(SEATS[0]!);
  return (
    <Shell brand="Stagepass" nav={['Events', 'My tickets']}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h4" component="h1">
          Ticket TKT-88412
        </Typography>
        <Chip label="Pending" color="warning" size="small" />
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        The Midnight Quartet · Sat 13 Dec 2026, 20:00 · Philharmonie Hall
      </Typography>
      <Card>
        <CardContent>
          <FormControl sx={{ minWidth: 260, mb: 2 }}>
            <InputLabel id="seat-label">Seat</InputLabel>
            <Select labelId="seat-label" label="Seat" value={seat} onChange={(e) => setSeat(e.target.value)}>
              {SEATS.map((s) => (
                <MenuItem key={s} value={s}>
                  {s}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Typography>Category B · {money(64)} incl. fees</Typography>
          <Typography variant="body2" color="text.secondary">
            Your seat is held until payment is confirmed.
          </Typography>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Confirm seat</Button>
        <Button variant="text">Release ticket</Button>
      </Stack>
    </Shell>
  );
}
