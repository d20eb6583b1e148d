/** @jsxImportSource react */
import { Button, Card, CardContent, Chip, Divider, FormControlLabel, Snackbar, Stack, Switch, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

/** Subscription settings: "Auto-renew" is part of the subscription itself; the others are preferences. */
export function SubscriptionSettings() {
  useDocumentTitle('Subscription settings · Streamly');
  const [autoRenew, setAutoRenew] = useState(true);
  const [toast, setToast] = useState('');
  const toggleRenew = (on: boolean) => {
    setAutoRenew(on);
    setToast(on ? 'Auto-renew turned on' : 'Auto-renew turned off');
  };
  return (
    <Shell brand="Streamly" nav={['Browse', 'My list', 'Account']}>
      <Typography variant="h4" component="h1" gutterBottom>
        Subscription settings
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <Typography>Subscription SUB-88120 · Premium, billed monthly</Typography>
        <Chip label="Active" color="success" size="small" />
      </Stack>
      <Card>
        <CardContent>
          <Stack>
            <FormControlLabel control={<Switch checked={autoRenew} onChange={(e) => toggleRenew(e.target.checked)} />} label="Auto-renew" />
            <Typography variant="body2" color="text.secondary" sx={{ ml: 6, mb: 1 }}>
              {autoRenew ? 'Renews on 1 January 2027 for €13.99.' : 'Ends on 1 January 2027 and will not renew.'}
            </Typography>
            <Divider sx={{ my: 1 }} />
            <FormControlLabel control={<Switch defaultChecked />} label="Email me about new releases" />
            <FormControlLabel control={<Switch />} label="Autoplay previews" />
          </Stack>
        </CardContent>
      </Card>
      <Button variant="outlined" color="error" sx={{ mt: 2 }}>
        Cancel subscription
      </Button>
      <Snackbar open={toast !== ''} autoHideDuration={3000} onClose={() => setToast('')} message={toast} />
    </Shell>
  );
}
