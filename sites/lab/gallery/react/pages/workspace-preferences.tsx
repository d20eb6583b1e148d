/** @jsxImportSource react */
import { Autocomplete, Box, Button, Card, CardContent, Slider, Tab, Tabs, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle } from '../shell.tsx';

const ZONES = ['Europe/Lisbon', 'Europe/London', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];

/** Workspace preferences with MUI's Tabs, an Autocomplete (its options only after opening) and a Slider. */
export function WorkspacePreferences() {
  useDocumentTitle('Preferences · Teamboard');
  const [tab, setTab] = useState(0);
  const [zone, setZone] = useState<string | null>('Europe/Lisbon');
  const [digest, setDigest] = useState(3);
  return (
    <Shell brand="Teamboard" nav={['Boards', 'People', 'Settings']}>
      <Typography variant="h4" component="h1" gutterBottom>
        Workspace preferences
      </Typography>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label="Preference sections">
        <Tab label="General" />
        <Tab label="Notifications" />
        <Tab label="Members" />
      </Tabs>
      <Card sx={{ mt: 2, maxWidth: 560 }}>
        <CardContent>
          <Box role="tabpanel" hidden={tab !== 0}>
            <Autocomplete options={ZONES} value={zone} onChange={(_, v) => setZone(v)} renderInput={(params) => <TextField {...params} label="Time zone" />} />
          </Box>
          <Box role="tabpanel" hidden={tab !== 1}>
            <Typography id="digest-label" gutterBottom>
              Digest emails per week
            </Typography>
            <Slider aria-labelledby="digest-label" value={digest} min={0} max={7} step={1} marks valueLabelDisplay="auto" onChange={(_, v) => setDigest(v as number)} />
          </Box>
          <Box role="tabpanel" hidden={tab !== 2}>
            <Typography>6 members · 2 pending invitations</Typography>
          </Box>
          <Button variant="contained" sx={{ mt: 2 }}>
            Save preferences
          </Button>
        </CardContent>
      </Card>
    </Shell>
  );
}
