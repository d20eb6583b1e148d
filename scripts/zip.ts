// The extension package's ZIP archive, written and read back with fflate (no `zip` binary in CI).
import { crc32 } from 'node:zlib';
import { unzipSync, zipSync, type Zippable } from 'fflate';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, no leading slash. */
  name: string;
  data: Uint8Array;
}

/** 1980-01-01 00:00, the format's epoch: a fixed date keeps the archive byte-for-byte reproducible. */
const EPOCH = new Date(1980, 0, 1);
/** Unix `-rw-r--r--` in the external attributes (made by Unix): `unzip` applies it. */
const FILE_ATTRS = (0o100644 << 16) >>> 0;
const UNIX = 3;

/** The archive's bytes, entries in the given order. */
export function createZip(entries: readonly ZipEntry[]): Buffer {
  const files: Zippable = {};
  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith('/') || entry.name.includes('\\') || entry.name.split('/').includes('..')) throw new Error(`bad zip entry name: ${entry.name}`);
    if (entry.name in files) throw new Error(`duplicate zip entry name: ${entry.name}`);
    files[entry.name] = [entry.data, { level: 9, mtime: EPOCH, os: UNIX, attrs: FILE_ATTRS }];
  }
  return Buffer.from(zipSync(files));
}

/**
 * Every file of an archive, by name. fflate does not check CRC-32s on reading, so each file is
 * checked here against the CRC its central directory entry records (a damaged package must not pass).
 */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const crcs = centralCrcs(zip);
  const files = new Map<string, Buffer>();
  for (const [name, data] of Object.entries(unzipSync(new Uint8Array(zip)))) {
    if (name.endsWith('/')) continue;
    if (crc32(data) !== crcs.get(name)) throw new Error(`zip entry ${name} fails its CRC check`);
    files.set(name, Buffer.from(data));
  }
  return files;
}

/** Name → CRC-32 from the central directory (found through the end record, which has no comment in these archives). */
function centralCrcs(zip: Buffer): Map<string, number> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip archive: no end of central directory');
  const crcs = new Map<string, number>();
  let at = zip.readUInt32LE(end + 16);
  for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt zip: bad central directory entry');
    const nameLength = zip.readUInt16LE(at + 28);
    crcs.set(zip.toString('utf8', at + 46, at + 46 + nameLength), zip.readUInt32LE(at + 16));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return crcs;
}
