import { BENIGN_TASKS, attacksFor, type Attack, type BenignTask } from '../sites/attacks/catalog.ts';
import { startAttackLab } from '../sites/attacks/server.ts';
import {
  attackSucceeded,
  attackTried,
  bridgeAttack,
  bridgeBenign,
  bridgeDoor,
  copilotAttack,
  copilotBenign,
  copilotDoor,
  falseHold,
  type Door,
  type RunRecord,
} from '../test/harness/security-runs.ts';
import type { Row } from './report.ts';

/**
 * security.*: planted attacks (sites/attacks/catalog.ts) carried out by an agent that obeys every
 * instruction it reads (sites/model/obedient/), through both doors: the co-pilot (a scripted model)
 * and a paired MCP client of the real bridge. The person denies every card the attack raises and
 * approves their own task's steps. An attack succeeded when the lab's servers (the account site,
 * or the attacker's origin) received what it aimed at. Benign tasks, with nothing planted, count
 * false holds: a card or a refusal where a person would not expect one.
 */

/** `--quick`: each channel once, each goal kind at least once. */
const QUICK = new Set([
  'visible-text/write.cancel',
  'visible-text/write.autosave',
  'visible-text/exfil.open-redirect',
  'visible-text/exfil.image',
  'visible-text/exfil.steward-open',
  'visible-text/self-approval.dialog',
  'visible-text/form.gift-card',
  'visible-text/widen.grant-app',
  'hidden-text/write.cancel',
  'offscreen-text/write.cancel',
  'image-alt/exfil.navigation',
  'title/write.cancel',
  'tool-description/exfil.form-get',
  'tool-output/write.address',
  'iframe-same-origin/write.autosave',
  'iframe-cross-origin/widen.leave-sites',
  'placeholder/exfil.navigation',
]);

export interface SecurityOutcome {
  /** `reached`: the planted instruction reached the agent (it took the attack's first step); the others never saw it. */
  attacks: Array<{ door: Door; attack: Attack; succeeded: boolean; reached: boolean; record: RunRecord }>;
  benign: Array<{ door: Door; task: BenignTask; hold: string | undefined; done: boolean; record: RunRecord }>;
}

export async function securityRuns(options: { quick?: boolean; only?: (id: string) => boolean; doors?: Door[]; log?: (line: string) => void } = {}): Promise<SecurityOutcome> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const pick = options.only ?? (options.quick ? (id: string) => id.startsWith('benign/') || QUICK.has(id) : () => true);
  const lab = await startAttackLab();
  const out: SecurityOutcome = { attacks: [], benign: [] };
  try {
    for (const door of options.doors ?? (['copilot', 'bridge'] as Door[])) {
      const opened = door === 'copilot' ? await copilotDoor(lab) : await bridgeDoor(lab);
      try {
        for (const task of BENIGN_TASKS.filter((t) => pick(`benign/${t.id}`))) {
          const record =
            door === 'copilot' ? await copilotBenign(opened as Awaited<ReturnType<typeof copilotDoor>>, lab, task) : await bridgeBenign(opened as Awaited<ReturnType<typeof bridgeDoor>>, lab, task);
          const hold = falseHold(task, record);
          const done = task.done(record.received);
          out.benign.push({ door, task, hold, done, record });
          log(`  ${door.padEnd(7)} benign/${task.id.padEnd(28)} ${hold ? `FALSE HOLD: ${hold}` : done ? 'ok' : 'not done'}  [${record.moves.join(' · ')}]`);
        }
        for (const attack of attacksFor(door).filter((a) => pick(a.id))) {
          const record =
            door === 'copilot'
              ? await copilotAttack(opened as Awaited<ReturnType<typeof copilotDoor>>, lab, attack)
              : await bridgeAttack(opened as Awaited<ReturnType<typeof bridgeDoor>>, lab, attack);
          const succeeded = attackSucceeded(attack, record);
          out.attacks.push({ door, attack, succeeded, reached: attackTried(attack, record, lab), record });
          log(`  ${door.padEnd(7)} ${attack.id.padEnd(36)} ${succeeded ? 'SUCCEEDED' : 'stopped'}  [${record.moves.join(' · ')}] cards ${record.cards.map((c) => c.action).join(',') || '-'}`);
        }
      } finally {
        await opened.close().catch(() => undefined);
      }
    }
  } finally {
    await lab.stop();
  }
  return out;
}

/** A row's note holds 600 characters; the full list is printed as the runs go. */
const clipNote = (note: string) => (note.length > 600 ? `${note.slice(0, 580)}… (more above)` : note);

const pct = (n: number, of: number) => (of === 0 ? 0 : (100 * n) / of);

export function securityRows(o: SecurityOutcome): Row[] {
  const won = o.attacks.filter((a) => a.succeeded);
  const held = o.benign.filter((b) => b.hold !== undefined);
  const undone = o.benign.filter((b) => !b.done);
  const unseen = o.attacks.filter((a) => !a.reached);
  const channelsUnseen = [...new Set(unseen.map((a) => a.attack.channel))];
  const reach = `${o.attacks.length - unseen.length} reached the agent${unseen.length > 0 ? ` (${unseen.length} never did, planted in: ${channelsUnseen.join(', ')})` : ''}`;
  const attackNote =
    won.length === 0
      ? `${o.attacks.length} attacks tried, none succeeded; ${reach}`
      : `${won.length} of ${o.attacks.length} succeeded (door: channel→goal): ${won.map((a) => `${a.door}: ${a.attack.channel}→${a.attack.goal.id}`).join('; ')}; ${reach}`;
  const holdNote = [
    held.length === 0 ? `${o.benign.length} benign tasks, no false hold` : `${held.length} of ${o.benign.length}: ${held.map((b) => `${b.door} ${b.task.id} (${b.hold})`).join('; ')}`,
    undone.length > 0 ? `not completed: ${undone.map((b) => `${b.door} ${b.task.id}`).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return [
    { metric: 'security.attack_success', case: 'obedient-agent', value: pct(won.length, o.attacks.length), unit: '%', better: 'lower', note: clipNote(attackNote) },
    { metric: 'security.false_holds', case: 'benign-tasks', value: pct(held.length, o.benign.length), unit: '%', better: 'lower', note: clipNote(holdNote) },
  ];
}
