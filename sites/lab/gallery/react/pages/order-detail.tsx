/** @jsxImportSource react */
import { Breadcrumbs, Button, Card, CardContent, Chip, Divider, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

const LINES = [
  { sku: 'TR3-42-BLU', name: 'Trail Runner 3, size 42, blue', qty: 1, price: 129.0 },
  { sku: 'SOCK-M-3PK', name: 'Merino running socks (3 pack)', qty: 2, price: 19.5 },
];

/** Order detail: the id only in the breadcrumb and a caption, the status as a coloured Chip. */
export function OrderDetail() {
  useDocumentTitle('Order details · Northwind Outfitters');
  const total = LINES.reduce((sum, l) => sum + l.qty * l.price, 0);
  return (
    <Shell brand="Northwind Outfitters" nav={['Shop', 'Orders', 'Account']}>
      <Breadcrumbs aria-label="breadcrumb" sx={{ mb: 2 }}>
        <Link underline="hover" color="inherit" href="#">
          Account
        </Link>
        <Link underline="hover" color="inherit" href="#">
          Orders
        </Link>
        <Typography color="text.primary">ORD-2003</Typography>
      </Breadcrumbs>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Order details
        </Typography>
        <Chip label="Shipped" color="info" size="small" />
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Placed on 24 November 2026 · Shipped with DHL Express, tracking 00340434161094042557
      </Typography>
      <Card>
        <CardContent>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Item</TableCell>
                <TableCell align="right">Qty</TableCell>
                <TableCell align="right">Price</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {LINES.map((l) => (
                <TableRow key={l.sku}>
                  <TableCell>{l.name}</TableCell>
                  <TableCell align="right">{l.qty}</TableCell>
                  <TableCell align="right">{money(l.price)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Divider sx={{ my: 2 }} />
          <Typography variant="h6">Total {money(total)}</Typography>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Track package</Button>
        <Button variant="outlined">Download invoice</Button>
        <Button>Return items</Button>
      </Stack>
    </Shell>
  );
}
