import { useEffect, useState } from 'preact/hooks';
import type { AuditExportStatus } from '../protocol/audit-export.ts';
import { auditExportStatus, auditRetention, subscribe } from './background-client.ts';

/**
 * What the worker holds for the activity log's two settings, which Settings' one Save changes
 * along with the rest: the retention period, and the audit export's target with how it stands
 * (kept live from the worker's pushes). Undefined until read: the form leaves a part it does not
 * know alone.
 */

export function useAuditRetention(): { days: number | null | undefined; error: string; saved: (days: number | null) => void } {
  const [days, setDays] = useState<number | null | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let alive = true;
    const load = () =>
      auditRetention().then(
        (r) => alive && (setDays(r.days), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load();
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, []);
  return { days, error, saved: setDays };
}

export function useAuditExportStatus(): { status: AuditExportStatus | undefined; error: string; saved: (status: AuditExportStatus) => void } {
  const [status, setStatus] = useState<AuditExportStatus | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let alive = true;
    const load = () =>
      auditExportStatus().then(
        (s) => alive && (setStatus(s), setError('')),
        (e: Error) => alive && setError(e.message),
      );
    void load();
    const unsubscribe = subscribe((m) => {
      if (m.type === 'panel/audit-export-changed' || m.type === 'panel/bridge-changed' || m.type === 'panel/audit-changed' || m.type === 'panel/reconnected') void load();
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, []);
  return { status, error, saved: setStatus };
}
