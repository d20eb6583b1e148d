// idb's wrapper checks values against the IDB* globals, so install fake-indexeddb's.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { openStewardDb, type StewardDb } from '../../../src/storage/db.ts';

/** The extension's database as this suite expects it (pinned, not imported: a rename or a schema bump must be deliberate). */
export const DB_NAME = 'steward';
export const DB_VERSION = 5;

/** A fresh, isolated IndexedDB (its own fake-indexeddb factory) per test. */
export function freshFactory(): IDBFactory {
  return new IDBFactory();
}

export function openDb(factory: IDBFactory = freshFactory()): Promise<StewardDb> {
  return openStewardDb({ factory });
}

/** Controllable time, in ms since the epoch. */
export class FakeClock {
  constructor(public t = Date.parse('2026-08-03T11:40:00Z')) {}
  now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}
