import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createZip, readZip } from '../../../scripts/zip.ts';

const text = (s: string) => new Uint8Array(Buffer.from(s));

describe('the package zip', () => {
  const entries = [
    { name: 'manifest.json', data: text('{"name":"Steward","version":"0.1.0"}\n') },
    { name: 'src/sidepanel/index.html', data: text('<!doctype html>'.repeat(200)) },
    { name: 'icons/icon-16.png', data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) },
    { name: 'empty.txt', data: new Uint8Array(0) },
  ];

  it('reads back exactly what it wrote, compressed or stored', () => {
    const zip = createZip(entries);
    const files = readZip(zip);
    expect([...files.keys()]).toEqual(entries.map((e) => e.name));
    for (const e of entries) expect(new Uint8Array(files.get(e.name)!)).toEqual(e.data);
    // The repetitive page is deflated: the archive is smaller than its contents.
    expect(zip.length).toBeLessThan(entries.reduce((n, e) => n + e.data.length, 0));
  });

  it('is reproducible: the same files give the same bytes', () => {
    expect(createZip(entries).equals(createZip(entries))).toBe(true);
  });

  it('refuses names that would unpack outside the folder', () => {
    for (const name of ['../evil.js', '/etc/passwd', 'a\\b.js', 'a/../../b']) expect(() => createZip([{ name, data: text('x') }])).toThrow(/bad zip entry name/);
  });

  it('notices a damaged archive', () => {
    const zip = createZip([{ name: 'a.txt', data: text('hello hello hello hello') }]);
    expect(() => readZip(zip.subarray(0, zip.length - 30))).toThrow();
    const flipped = Buffer.from(createZip([{ name: 'a.txt', data: text('abc') }]));
    // The entry's data follows its 30-byte local header, its name and its extra field: damage its first byte.
    flipped[30 + flipped.readUInt16LE(26) + flipped.readUInt16LE(28)]! ^= 0x01;
    expect(() => readZip(flipped)).toThrow(/CRC|invalid|unexpected EOF/);
  });

  it.runIf(existsSync('/usr/bin/unzip'))("unpacks with Info-ZIP's unzip as a person's tools would", () => {
    const dir = mkdtempSync(join(tmpdir(), 'steward-zip-'));
    try {
      writeFileSync(join(dir, 'p.zip'), createZip(entries));
      execFileSync('unzip', ['-q', join(dir, 'p.zip'), '-d', join(dir, 'out')]);
      for (const e of entries) expect(new Uint8Array(readFileSync(join(dir, 'out', e.name)))).toEqual(e.data);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
