/** @jsxImportSource react */
import { Box, Breadcrumbs, Button, Checkbox, Link, Paper, Stack, Typography } from '@mui/material';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

const ITEMS = Array.from({ length: 240 }, (_, i) => ({
  sku: `SKU-${(10400 + i * 7).toString()}`,
  name: `${['Hex bolt M6', 'Wood screw 4x40', 'Wall plug 8 mm', 'Washer M8', 'Cable tie 200 mm', 'Hinge 60 mm'][i % 6]} (box ${(i % 12) + 1})`,
  price: 2.5 + ((i * 37) % 90) / 10,
}));

/** A trade cart with hundreds of lines: only the rows in view exist in the DOM (virtualised). */
export function CartVirtual() {
  useDocumentTitle('Your cart (240 items) · BuildMart Trade');
  const parentRef = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: ITEMS.length, getScrollElement: () => parentRef.current, estimateSize: () => 56, overscan: 4 });
  const total = ITEMS.reduce((sum, item) => sum + item.price, 0);
  return (
    <Shell brand="BuildMart Trade" nav={['Catalogue', 'Cart', 'Account']}>
      <Breadcrumbs aria-label="breadcrumb" sx={{ mb: 2 }}>
        <Link underline="hover" color="inherit" href="#">
          Trade account
        </Link>
        <Typography color="text.primary">Cart CRT-40218</Typography>
      </Breadcrumbs>
      <Typography variant="h4" component="h1" gutterBottom>
        Your cart
      </Typography>
      <Paper ref={parentRef} sx={{ height: 420, overflow: 'auto' }} role="list" aria-label="Cart items">
        <Box sx={{ height: rows.getTotalSize(), position: 'relative' }}>
          {rows.getVirtualItems().map((row) => {
            const item = ITEMS[row.index]!;
            return (
              <Stack
                key={row.key}
                role="listitem"
                direction="row"
                sx={{ position: 'absolute', top: 0, left: 0, width: '100%', height: row.size, transform: `translateY(${row.start}px)`, alignItems: 'center', px: 2, borderBottom: '1px solid #eee' }}
              >
                <Checkbox defaultChecked slotProps={{ input: { 'aria-label': `Keep ${item.name}` } }} />
                <Typography sx={{ flexGrow: 1 }}>{item.name}</Typography>
                <Typography variant="body2" color="text.secondary" sx={{ width: 110 }}>
                  {item.sku}
                </Typography>
                <Typography sx={{ width: 80, textAlign: 'right' }}>{money(item.price)}</Typography>
              </Stack>
            );
          })}
        </Box>
      </Paper>
      <Stack direction="row" sx={{ mt: 2, alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography variant="h6">Subtotal {money(total)}</Typography>
        <Button variant="contained">Proceed to checkout</Button>
      </Stack>
    </Shell>
  );
}
