/** @jsxImportSource react */
import { Chip, FormControl, IconButton, InputLabel, MenuItem, Paper, Select, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { Shell, useDocumentTitle, useTick } from '../shell.tsx';

type UserStatus = 'Active' | 'Invited' | 'Suspended';
const USERS: { email: string; name: string; role: string; status: UserStatus }[] = [
  { email: 'ana.lopez@acme.io', name: 'Ana López', role: 'Owner', status: 'Active' },
  { email: 'b.okafor@acme.io', name: 'Bola Okafor', role: 'Admin', status: 'Active' },
  { email: 'c.wu@acme.io', name: 'Chen Wu', role: 'Member', status: 'Invited' },
  { email: 'd.novak@acme.io', name: 'Dana Novak', role: 'Member', status: 'Suspended' },
  { email: 'e.smith@acme.io', name: 'Eli Smith', role: 'Billing', status: 'Active' },
  { email: 'f.rossi@acme.io', name: 'Franca Rossi', role: 'Member', status: 'Invited' },
];
const CHIP_COLOR = { Active: 'success', Invited: 'default', Suspended: 'error' } as const;

/** An admin table of many users, each with its own status chip; a status filter and a "online now" ticker. */
export function AdminUsers() {
  useDocumentTitle('Users · Acme Console');
  const tick = useTick(2000);
  const [filter, setFilter] = useState('All');
  const [query, setQuery] = useState('');
  const shown = USERS.filter((u) => (filter === 'All' || u.status === filter) && u.name.toLowerCase().includes(query.toLowerCase()));
  return (
    <Shell brand="Acme Console" nav={['Users', 'Billing', 'Audit log']}>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
        <Typography variant="h4" component="h1" gutterBottom>
          Users
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {31 + ((tick * 7) % 13)} online now
        </Typography>
      </Stack>
      <Stack direction="row" spacing={2} sx={{ mb: 2 }}>
        <TextField label="Search users" size="small" value={query} onChange={(e) => setQuery(e.target.value)} />
        <FormControl size="small" sx={{ minWidth: 180 }}>
          <InputLabel id="status-filter-label">Status filter</InputLabel>
          <Select labelId="status-filter-label" label="Status filter" value={filter} onChange={(e) => setFilter(e.target.value)}>
            {['All', 'Active', 'Invited', 'Suspended'].map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Stack>
      <TableContainer component={Paper}>
        <Table aria-label="Users">
          <TableHead>
            <TableRow>
              <TableCell>Name</TableCell>
              <TableCell>Email</TableCell>
              <TableCell>Role</TableCell>
              <TableCell>Status</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((u) => (
              <TableRow key={u.email} hover>
                <TableCell>{u.name}</TableCell>
                <TableCell>{u.email}</TableCell>
                <TableCell>{u.role}</TableCell>
                <TableCell>
                  <Chip label={u.status} color={CHIP_COLOR[u.status]} size="small" />
                </TableCell>
                <TableCell align="right">
                  <IconButton aria-label={`More actions for ${u.name}`} size="small">
                    <span aria-hidden="true">⋮</span>
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Shell>
  );
}
