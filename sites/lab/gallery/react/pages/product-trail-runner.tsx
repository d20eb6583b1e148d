/** @jsxImportSource react */
import { Box, Button, Chip, FormControl, Grid, InputLabel, MenuItem, Rating, Select, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, money, useDocumentTitle } from '../shell.tsx';

/** A product page: "Trail Runner 3" is a product name with a number in it, not an order or any other resource id. */
export function ProductTrailRunner() {
  useDocumentTitle('Trail Runner 3 – Lightweight trail shoe | Northwind Outfitters');
  const [size, setSize] = useState('');
  return (
    <Shell brand="Northwind Outfitters" nav={['Men', 'Women', 'Sale']}>
      <Grid container spacing={4}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Box role="img" aria-label="Trail Runner 3 in blue, side view" sx={{ height: 360, borderRadius: 2, background: 'linear-gradient(135deg,#7fb3e6,#1f4e8c)' }} />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Typography variant="overline">Running · Trail</Typography>
          <Typography variant="h3" component="h1" gutterBottom>
            Trail Runner 3
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2 }}>
            <Rating value={4.5} precision={0.5} readOnly />
            <Typography variant="body2">4.5 (312 reviews)</Typography>
            <Chip label="In stock" color="success" size="small" variant="outlined" />
          </Stack>
          <Typography variant="h5" sx={{ mb: 2 }}>
            {money(129)}
          </Typography>
          <FormControl fullWidth sx={{ mb: 2 }}>
            <InputLabel id="size-label">Size</InputLabel>
            <Select labelId="size-label" label="Size" value={size} onChange={(e) => setSize(e.target.value)}>
              {['40', '41', '42', '43', '44', '45'].map((s) => (
                <MenuItem key={s} value={s}>
                  EU {s}
                </MenuItem>
              ))}
            </Select>
          </FormControl>
          <Stack direction="row" spacing={2}>
            <Button variant="contained" size="large">
              Add to cart
            </Button>
            <Button variant="outlined" size="large">
              Add to wishlist
            </Button>
          </Stack>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 3 }}>
            Version 3 of our best-selling trail shoe: 280 g, 6 mm drop, Vibram outsole. Model 2024, style no. 3.
          </Typography>
        </Grid>
      </Grid>
    </Shell>
  );
}
