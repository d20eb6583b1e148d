/** @jsxImportSource react */
import { Autocomplete, Button, Slider, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { WidgetFrame, useAnswer } from './frame.tsx';

/** Countries for the Autocomplete: several share a prefix, so typing narrows, then one is picked. */
const COUNTRIES = ['Poland', 'Portugal', 'Paraguay', 'Panama', 'Peru', 'Philippines', 'Norway', 'Netherlands', 'New Zealand'];

export function MuiAutocompletePage() {
  const [sent, answer] = useAnswer('mui-autocomplete');
  const [country, setCountry] = useState<string | null>(null);
  return (
    <WidgetFrame title="Shipping country" sent={sent}>
      <Stack spacing={2} sx={{ width: 300 }}>
        <Autocomplete options={COUNTRIES} value={country} onChange={(_, v) => setCountry(v)} renderInput={(params) => <TextField {...params} label="Country" />} />
        <Button variant="contained" onClick={() => answer({ country })}>
          Submit
        </Button>
      </Stack>
    </WidgetFrame>
  );
}

export function MuiSliderPage() {
  const [sent, answer] = useAnswer('mui-slider');
  const [volume, setVolume] = useState(50);
  return (
    <WidgetFrame title="Sound" sent={sent}>
      <Typography id="volume-label">Volume</Typography>
      <Slider sx={{ width: 280, display: 'block' }} aria-labelledby="volume-label" value={volume} step={10} min={0} max={100} valueLabelDisplay="auto" onChange={(_, v) => setVolume(v as number)} />
      <Button variant="contained" onClick={() => answer({ volume })}>
        Save
      </Button>
    </WidgetFrame>
  );
}

export function MuiDatePage() {
  const [sent, answer] = useAnswer('mui-date');
  const [date, setDate] = useState('');
  return (
    <WidgetFrame title="Schedule delivery" sent={sent}>
      <Stack spacing={2} sx={{ width: 260 }}>
        <TextField type="date" label="Delivery date" value={date} onChange={(e) => setDate(e.target.value)} slotProps={{ inputLabel: { shrink: true } }} />
        <Button variant="contained" onClick={() => answer({ date })}>
          Schedule
        </Button>
      </Stack>
    </WidgetFrame>
  );
}
