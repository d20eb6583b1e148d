/** @jsxImportSource react */
import { Box, Button, Card, CardContent, Chip, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Shell, useDocumentTitle, useTick } from '../shell.tsx';

/** An expense report draft whose polite live region says "Saving…" then "Saved" over and over (churn). */
export function AutosaveLive() {
  useDocumentTitle('Expense report EXP-5530 · Spendwise');
  const tick = useTick(1500);
  return (
    <Shell brand="Spendwise" nav={['Reports', 'Cards', 'Approvals']}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h4" component="h1">
          Expense report EXP-5530
        </Typography>
        <Chip label="Draft" size="small" />
        <Box role="status" aria-live="polite" sx={{ color: 'text.secondary', fontSize: 14 }}>
          {tick % 2 === 0 ? 'Saving…' : 'Saved'}
        </Box>
      </Stack>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Client visit, Lyon · 17–18 Nov 2026
      </Typography>
      <Card>
        <CardContent>
          <Stack spacing={2} sx={{ maxWidth: 480 }}>
            <TextField label="Purpose" defaultValue="Quarterly review with Brightside Studio" />
            <TextField label="Category" select defaultValue="travel">
              <MenuItem value="travel">Travel</MenuItem>
              <MenuItem value="meals">Meals</MenuItem>
              <MenuItem value="lodging">Lodging</MenuItem>
            </TextField>
            <TextField label="Amount (EUR)" defaultValue="312.40" />
          </Stack>
        </CardContent>
      </Card>
      <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
        <Button variant="contained">Submit for approval</Button>
        <Button>Add receipt</Button>
      </Stack>
    </Shell>
  );
}
