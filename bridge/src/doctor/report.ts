import type { Check, DoctorReport } from './doctor.ts';

/** The doctor's report as a person reads it: a line per check (ok / problem), each problem followed by its fix. */
export function reportText(report: DoctorReport): string {
  const lines: string[] = [];
  const check = (c: Check) => {
    lines.push(`  ${c.ok ? 'ok     ' : 'problem'}  ${c.text}`);
    if (!c.ok && c.fix) lines.push(`           fix: ${c.fix}`);
  };
  for (const browser of report.browsers) {
    lines.push(browser.where ? `${browser.label} (${browser.where})` : browser.label);
    browser.checks.forEach(check);
  }
  lines.push('Steward');
  check(report.steward);
  const problems = [...report.browsers.flatMap((b) => b.checks), report.steward].filter((c) => !c.ok).length;
  lines.push(problems === 0 ? 'All checks passed.' : `${problems} problem${problems === 1 ? '' : 's'} found.`);
  return `${lines.join('\n')}\n`;
}
