/** @jsxImportSource react */
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Box,
  Button,
  Checkbox,
  Collapse,
  FormControlLabel,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Menu,
  MenuItem,
  SvgIcon,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { useState, type MouseEvent, type ReactNode } from 'react';
import { WidgetFrame, useAnswer } from './frame.tsx';

export function MuiTabsPage() {
  const [sent, answer] = useAnswer('mui-tabs');
  const [tab, setTab] = useState(0);
  const panels = [
    ['Overview', 'Plan: Team, 5 seats.', 'Add seats', 'add-seats'],
    ['Billing', 'Next invoice on 1 December.', 'Download invoice', 'download-invoice'],
    ['Members', '5 people in this workspace.', 'Invite people', 'invite'],
  ] as const;
  return (
    <WidgetFrame title="Workspace" sent={sent}>
      <Tabs value={tab} onChange={(_, v: number) => setTab(v)} aria-label="Workspace sections">
        {panels.map(([name]) => (
          <Tab key={name} label={name} />
        ))}
      </Tabs>
      {panels.map(([name, text, button, act], i) => (
        <Box key={name} role="tabpanel" hidden={tab !== i} sx={{ py: 2 }}>
          <Typography gutterBottom>{text}</Typography>
          <Button variant="outlined" onClick={() => answer({ action: act })}>
            {button}
          </Button>
        </Box>
      ))}
    </WidgetFrame>
  );
}

function MoreIcon() {
  return (
    <SvgIcon>
      <path d="M12 8c1.1 0 2-.9 2-2s-.9-2-2-2-2 .9-2 2 .9 2 2 2zm0 2c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2zm0 6c-1.1 0-2 .9-2 2s.9 2 2 2 2-.9 2-2-.9-2-2-2z" />
    </SvgIcon>
  );
}

export function MuiMenuPage() {
  const [sent, answer] = useAnswer('mui-menu');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const choose = (action: string) => {
    setAnchor(null);
    answer({ action });
  };
  return (
    <WidgetFrame title="Project Apollo" sent={sent}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography sx={{ flex: 1 }}>Project Apollo · updated yesterday</Typography>
        {/* Icon-only, as many apps ship it: no text, no aria-label. */}
        <IconButton onClick={(e: MouseEvent<HTMLElement>) => setAnchor(e.currentTarget)} aria-haspopup="menu">
          <MoreIcon />
        </IconButton>
      </Box>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {['Rename', 'Duplicate', 'Archive'].map((item) => (
          <MenuItem key={item} onClick={() => choose(item.toLowerCase())}>
            {item}
          </MenuItem>
        ))}
      </Menu>
    </WidgetFrame>
  );
}

export function MuiAccordionPage() {
  const [sent, answer] = useAnswer('mui-accordion');
  const [door, setDoor] = useState(false);
  return (
    <WidgetFrame title="Delivery preferences" sent={sent}>
      <Accordion>
        <AccordionSummary>Address</AccordionSummary>
        <AccordionDetails>12 Elm St, Portland OR</AccordionDetails>
      </Accordion>
      <Accordion>
        <AccordionSummary>Delivery instructions</AccordionSummary>
        <AccordionDetails>
          <FormControlLabel control={<Checkbox checked={door} onChange={(e) => setDoor(e.target.checked)} />} label="Leave at the door" />
        </AccordionDetails>
      </Accordion>
      <Button variant="contained" sx={{ mt: 2 }} onClick={() => answer({ leave_at_door: door })}>
        Save
      </Button>
    </WidgetFrame>
  );
}

/** A tree the way MUI apps build one without @mui/x: nested Lists, ListItemButton rows, Collapse. */
const FOLDERS = [
  { name: 'Projects', children: [{ name: 'Apollo', files: ['plan.md', 'budget.xlsx'] }] },
  { name: 'Reports', children: [{ name: '2026', files: ['q3-summary.pdf', 'q4-forecast.pdf'] }] },
];

function Folder({ name, depth, children }: { name: string; depth: number; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ListItemButton sx={{ pl: 2 + depth * 2 }} onClick={() => setOpen(!open)}>
        <ListItemText primary={`${open ? '▾' : '▸'} ${name}`} />
      </ListItemButton>
      <Collapse in={open} unmountOnExit>
        <List disablePadding>{children}</List>
      </Collapse>
    </>
  );
}

export function MuiTreePage() {
  const [sent, answer] = useAnswer('mui-tree');
  return (
    <WidgetFrame title="Files" sent={sent}>
      <List sx={{ width: 320, bgcolor: 'background.paper' }}>
        {FOLDERS.map((top) => (
          <Folder key={top.name} name={top.name} depth={0}>
            {top.children.map((sub) => (
              <Folder key={sub.name} name={sub.name} depth={1}>
                {sub.files.map((file) => (
                  <ListItemButton key={file} sx={{ pl: 8 }} onClick={() => answer({ opened: `${top.name}/${sub.name}/${file}` })}>
                    <ListItemText primary={file} />
                  </ListItemButton>
                ))}
              </Folder>
            ))}
          </Folder>
        ))}
      </List>
    </WidgetFrame>
  );
}
