/** @jsxImportSource react */
import { Alert, Button, Card, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

/** An order confirmation whose id appears only in the tab title; the body thanks the customer and shows a "Paid" chip. */
export function OrderTitleOnly() {
  useDocumentTitle('ORD-2040 · Order confirmation · Pinewood Home');
  return (
    <Shell brand="Pinewood Home" nav={['Shop', 'Orders']}>
      <Alert severity="success" sx={{ mb: 2 }}>
        A confirmation email is on its way to m.keller@example.com.
      </Alert>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Thanks for your order!
        </Typography>
        <Chip label="Paid" color="success" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Typography>Linen duvet cover, 200 × 220 · {money(89)}</Typography>
          <Typography>Two pillowcases · {money(34)}</Typography>
          <Typography variant="h6" sx={{ mt: 1 }}>
            Paid {money(123)} with Mastercard •••• 5100
          </Typography>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">View order</Button>
        <Button>Continue shopping</Button>
      </Stack>
    </Shell>
  );
}
