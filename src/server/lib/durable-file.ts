// A small file that must survive a crash or a power loss whole or not at all (the demo card key,
// the embedded database's password): written beside its place, forced to disk, renamed over it,
// and the directory forced too, so that the rename itself is on disk.
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

export function writeFileDurably(file: string, content: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
