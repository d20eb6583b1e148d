import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { regDefaultValue, regDelete, regSetDefault, type RegRunner } from './registry.ts';

/**
 * Every change install and uninstall make, kept so a failure half-way can be undone: a file's
 * previous bytes and mode (or that it was absent), the dirs it created, a registry key's previous
 * value. Files are replaced by rename, so none is ever left half-written.
 */

type Undo = () => void;

export class Journal {
  private readonly undos: Undo[] = [];

  constructor(private readonly reg?: RegRunner) {}

  /** Creates `dir` and any missing parents (mode for the new ones); remembers which were new. */
  mkdirs(dir: string, mode = 0o755): void {
    const missing: string[] = [];
    for (let d = dir; !existsSync(d); d = dirname(d)) missing.unshift(d);
    for (const d of missing) {
      mkdirSync(d, { mode });
      this.undos.push(() => rmdirIfEmpty(d));
    }
  }

  /** Writes `text` to `path` (via a temp file and a rename); true when it replaced a file. */
  write(path: string, text: string, mode: number): boolean {
    const previous = this.remember(path);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, text, { mode });
      chmodSync(temp, mode);
      renameSync(temp, path);
    } catch (error) {
      rmSync(temp, { force: true });
      throw error;
    }
    return previous;
  }

  /** Removes a file (restored on undo). */
  remove(path: string): void {
    this.remember(path);
    rmSync(path);
  }

  setRegistry(key: string, value: string): boolean {
    const reg = this.requireReg();
    const previous = regDefaultValue(reg, key);
    regSetDefault(reg, key, value);
    this.undos.push(() => (previous === null ? regDelete(reg, key) : regSetDefault(reg, key, previous)));
    return previous !== null;
  }

  deleteRegistry(key: string): void {
    const reg = this.requireReg();
    const previous = regDefaultValue(reg, key);
    regDelete(reg, key);
    if (previous !== null) this.undos.push(() => regSetDefault(reg, key, previous));
  }

  /** Undoes everything, newest first; an undo that fails does not stop the others. Returns what could not be undone. */
  rollback(): string[] {
    const failures: string[] = [];
    for (const undo of this.undos.reverse()) {
      try {
        undo();
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    this.undos.length = 0;
    return failures;
  }

  private remember(path: string): boolean {
    if (!existsSync(path)) {
      this.undos.push(() => rmSync(path, { force: true }));
      return false;
    }
    const bytes = readFileSync(path);
    const mode = statSync(path).mode & 0o7777;
    this.undos.push(() => {
      writeFileSync(path, bytes, { mode });
      chmodSync(path, mode);
    });
    return true;
  }

  private requireReg(): RegRunner {
    if (!this.reg) throw new Error('no registry on this platform');
    return this.reg;
  }
}

function rmdirIfEmpty(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
}
