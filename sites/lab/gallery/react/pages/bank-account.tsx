/** @jsxImportSource react */
import { Card, CardContent, Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Tab, Tabs, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, money, useDocumentTitle, useTick } from '../shell.tsx';

const TRANSACTIONS = [
  { date: '30 Nov', what: 'Card payment · Fresh Market', amount: -42.18 },
  { date: '29 Nov', what: 'Transfer from J. Moreau', amount: 250 },
  { date: '28 Nov', what: 'Direct debit · City Power', amount: -61.4 },
  { date: '27 Nov', what: 'Card payment · Rail Tickets', amount: -18.9 },
  { date: '25 Nov', what: 'Salary · Acme GmbH', amount: 2840 },
];

/** A bank account: id in a caption, status Chip, a balance line whose "as of" clock ticks every second. */
export function BankAccount() {
  useDocumentTitle('Everyday Checking · Harbor Bank');
  useTick(1000);
  const [tab, setTab] = useState(0);
  const now = new Date().toLocaleTimeString('en-GB');
  return (
    <Shell brand="Harbor Bank" nav={['Accounts', 'Payments', 'Cards']}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h4" component="h1">
          Everyday Checking
        </Typography>
        <Chip label="Active" color="success" size="small" />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Account ACC-4471-0092 · IBAN DE89 3704 0044 0532 0130 00
      </Typography>
      <Card sx={{ mb: 2 }}>
        <CardContent>
          <Typography variant="overline">Available balance</Typography>
          <Typography variant="h4">{money(3412.77)}</Typography>
          <Typography variant="caption" color="text.secondary">
            Balance as of {now}
          </Typography>
        </CardContent>
      </Card>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label="Account sections">
        <Tab label="Transactions" />
        <Tab label="Statements" />
        <Tab label="Details" />
      </Tabs>
      {tab === 0 && (
        <Table size="small" aria-label="Recent transactions">
          <TableHead>
            <TableRow>
              <TableCell>Date</TableCell>
              <TableCell>Description</TableCell>
              <TableCell align="right">Amount</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {TRANSACTIONS.map((t) => (
              <TableRow key={t.date + t.what}>
                <TableCell>{t.date}</TableCell>
                <TableCell>{t.what}</TableCell>
                <TableCell align="right" sx={{ color: t.amount < 0 ? 'error.main' : 'success.main' }}>
                  {money(t.amount)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {tab === 1 && <Typography sx={{ mt: 2 }}>Monthly statements are available from January 2024.</Typography>}
      {tab === 2 && <Typography sx={{ mt: 2 }}>Opened 3 March 2019 · Overdraft limit {money(500)}</Typography>}
    </Shell>
  );
}
