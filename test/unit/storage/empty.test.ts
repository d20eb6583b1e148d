import { describe, expect, it } from 'vitest';
import { emptyEveryDatabase } from '../../../src/storage/empty.ts';
import { freshFactory, openDb } from './helpers.ts';

describe('emptyEveryDatabase (the end-to-end reset between tests)', () => {
  it('empties every store of every database while the worker’s own connection stays open, and that connection keeps working', async () => {
    const factory = freshFactory();
    const db = await openDb(factory);
    await db.put('memory', { id: 'k', value: 'v' } as never);
    const other = await new Promise<IDBDatabase>((resolve) => {
      const request = factory.open('other', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('things', { autoIncrement: true });
      request.onsuccess = () => resolve(request.result);
    });
    await new Promise<void>((resolve) => {
      const tx = other.transaction('things', 'readwrite');
      tx.objectStore('things').add({ n: 1 });
      tx.oncomplete = () => resolve();
    });
    other.close();
    expect(await db.count('memory')).toBe(1);

    await emptyEveryDatabase(factory);

    expect(await db.count('memory')).toBe(0);
    const again = await new Promise<IDBDatabase>((resolve) => {
      const request = factory.open('other');
      request.onsuccess = () => resolve(request.result);
    });
    const left = await new Promise<number>((resolve) => {
      const request = again.transaction('things').objectStore('things').count();
      request.onsuccess = () => resolve(request.result);
    });
    again.close();
    expect(left).toBe(0);
    // The stores are still there, at their version: the open connection writes on.
    await db.put('memory', { id: 'k2', value: 'v' } as never);
    expect(await db.count('memory')).toBe(1);
    db.close();
  });
});
