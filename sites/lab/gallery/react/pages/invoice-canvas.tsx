/** @jsxImportSource react */
import { Box, Breadcrumbs, Button, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { useEffect, useRef } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

const BARS = [
  { label: 'Hosting', value: 420 },
  { label: 'Support', value: 180 },
  { label: 'Licences', value: 640 },
];

/** Draws the breakdown and the total into pixels only: no text node, no aria-label carries the amount. */
function drawInvoiceChart(canvas: HTMLCanvasElement): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  BARS.forEach((bar, i) => {
    const y = 24 + i * 48;
    ctx.fillStyle = ['#1f4e8c', '#5b8fd1', '#9cc0ec'][i]!;
    ctx.fillRect(120, y, bar.value / 1.6, 30);
    ctx.fillStyle = '#222';
    ctx.font = '15px sans-serif';
    ctx.fillText(bar.label, 12, y + 20);
    ctx.fillText(`€${bar.value.toFixed(2)}`, 130 + bar.value / 1.6, y + 20);
  });
  ctx.font = 'bold 26px sans-serif';
  ctx.fillText('Total due: €1,240.00', 12, 210);
}

/** An invoice whose total exists only on a canvas (planted conflict `canvas_total_not_observed`). */
export function InvoiceCanvas() {
  useDocumentTitle('Invoice INV-2024-118 · Ledgerly');
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvasRef.current) drawInvoiceChart(canvasRef.current);
  }, []);
  return (
    <Shell brand="Ledgerly" nav={['Invoices', 'Clients', 'Reports']}>
      <Breadcrumbs aria-label="breadcrumb" sx={{ mb: 2 }}>
        <Link underline="hover" color="inherit" href="#">
          Invoices
        </Link>
        <Typography color="text.primary">INV-2024-118</Typography>
      </Breadcrumbs>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography variant="h4" component="h1">
          Invoice for Brightside Studio
        </Typography>
        <Chip label="Awaiting payment" color="warning" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Typography variant="subtitle2" color="text.secondary">
            Issued 1 Nov 2026 · Due 1 Dec 2026
          </Typography>
          <Box sx={{ mt: 2 }}>
            <canvas ref={canvasRef} width={640} height={230} />
          </Box>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Pay invoice</Button>
        <Button variant="outlined">Download PDF</Button>
      </Stack>
    </Shell>
  );
}
