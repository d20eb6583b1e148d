/** @jsxImportSource react */
import { AppBar, Box, Button, Container, Toolbar, Typography } from '@mui/material';
import { useEffect, useState, type ReactNode } from 'react';

/** Sets the tab title the way SPAs do: after render, from the page component. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** A value that moves on its own every `ms`: clocks, tickers, countdowns (churn, not state). */
export function useTick(ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const id = window.setInterval(() => setTick((t) => t + 1), ms);
    return () => window.clearInterval(id);
  }, [ms]);
  return tick;
}

interface ShellProps {
  brand: string;
  nav?: string[];
  children: ReactNode;
}

/** The chrome every page has: a top bar with the brand and a few links, then the content. */
export function Shell({ brand, nav = [], children }: ShellProps) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: '#f5f6f8' }}>
      <AppBar position="sticky" elevation={1}>
        <Toolbar>
          <Typography variant="h6" component="div" sx={{ flexGrow: 1, fontWeight: 700 }}>
            {brand}
          </Typography>
          {nav.map((item) => (
            <Button key={item} color="inherit" href="#">
              {item}
            </Button>
          ))}
        </Toolbar>
      </AppBar>
      <Container maxWidth="lg" sx={{ py: 3 }}>
        {children}
      </Container>
    </Box>
  );
}

export function money(amount: number, currency = 'EUR'): string {
  return new Intl.NumberFormat('en-IE', { style: 'currency', currency }).format(amount);
}
