/** @jsxImportSource react */
import { Box, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { useDocumentTitle } from '../shell.tsx';
import { sendAnswer } from './answer.ts';

/** A small widget page: a heading, the widget, and a line saying the server has the answer. */
export function WidgetFrame({ title, children, sent }: { title: string; children: ReactNode; sent: boolean | null }) {
  useDocumentTitle(title);
  return (
    <Box sx={{ p: 2, maxWidth: 560 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {title}
      </Typography>
      {children}
      <Typography variant="body2" color={sent === false ? 'error' : 'success.main'} sx={{ mt: 2, minHeight: 20 }}>
        {sent === null ? '' : sent ? 'Sent.' : 'Not sent.'}
      </Typography>
    </Box>
  );
}

/** The page's answer sender and whether the last one arrived. */
export function useAnswer(slug: string): [boolean | null, (answer: unknown) => void] {
  const [sent, setSent] = useState<boolean | null>(null);
  return [sent, (answer) => void sendAnswer(slug, answer).then(setSent, () => setSent(false))];
}
