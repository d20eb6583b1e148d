/** @jsxImportSource react */
import { Card, CardContent, Grid, Stack, Typography } from '@mui/material';
import { Shell, useDocumentTitle, useTick } from '../shell.tsx';

const KPIS = [
  { label: 'Revenue (30 days)', value: '€48,210' },
  { label: 'Orders (30 days)', value: '1,284' },
  { label: 'Conversion rate', value: '3.1%' },
  { label: 'Refund rate', value: '0.8%' },
];
const SPARK = [12, 18, 14, 22, 19, 27, 24, 31, 29, 35, 33, 40];

/** An analytics overview: many numbers, no single resource and no state; a clock and a visitors counter churn. */
export function Dashboard() {
  useDocumentTitle('Overview · Northwind Admin');
  const tick = useTick(1000);
  const points = SPARK.map((v, i) => `${i * 30},${60 - v}`).join(' ');
  return (
    <Shell brand="Northwind Admin" nav={['Overview', 'Orders', 'Customers', 'Reports']}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Good afternoon, Mia
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {new Date().toLocaleTimeString('en-GB')} · {212 + ((tick * 13) % 37)} visitors on the site now
        </Typography>
      </Stack>
      <Grid container spacing={2}>
        {KPIS.map((k) => (
          <Grid key={k.label} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card>
              <CardContent>
                <Typography variant="overline">{k.label}</Typography>
                <Typography variant="h5">{k.value}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
        <Grid size={12}>
          <Card>
            <CardContent>
              <Typography variant="subtitle1">Weekly orders</Typography>
              <svg viewBox="0 0 340 60" width="100%" height="120" role="img" aria-label="Weekly orders, rising over 12 weeks">
                <polyline points={points} fill="none" stroke="#1f4e8c" strokeWidth="2" />
              </svg>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    </Shell>
  );
}
