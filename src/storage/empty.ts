/**
 * Every IndexedDB database of this origin emptied, its stores kept (test builds: the end-to-end
 * harness's reset, src/background/fresh-install.ts). Each through a connection of its own: the
 * worker's own connection stays open, so deleteDatabase would wait (blocked) until it closes.
 */
export async function emptyEveryDatabase(factory: IDBFactory = indexedDB): Promise<void> {
  const databases = await factory.databases();
  await Promise.all(databases.flatMap((d) => (d.name ? [emptyDatabase(factory, d.name)] : [])));
}

function emptyDatabase(factory: IDBFactory, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = factory.open(name);
    request.onerror = () => reject(request.error ?? new Error(`could not open ${name}`));
    request.onsuccess = () => {
      const db = request.result;
      const stores = [...db.objectStoreNames];
      if (stores.length === 0) return (db.close(), resolve());
      const tx = db.transaction(stores, 'readwrite');
      for (const store of stores) tx.objectStore(store).clear();
      tx.oncomplete = () => (db.close(), resolve());
      tx.onerror = () => (db.close(), reject(tx.error ?? new Error(`could not empty ${name}`)));
    };
  });
}
