// agentfs.mjs - the agentfs-sdk side of the store benchmark: the same
// workloads as bench_store.c (1,000 files of 1 KB written and read back, one
// 10 MB file, opening and closing a new database) through the SDK's own API,
// best of a few (see REPS), printed as "name ms" lines for run.sh.
// Usage: node agentfs.mjs NODE_MODULES DIR
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [modules, dir] = process.argv.slice(2);
const { AgentFS } = await import(
  pathToFileURL(join(modules, 'agentfs-sdk/dist/index_node.js')).href);

// Repetitions (best counts): 3 for writes (each takes seconds), 5 for reads
// and open+close; bench_store.c takes the best of 7 for everything (its
// runs are short and the machine is shared).
const NFILES = 1000, FILE_SIZE = 1024, BIG_SIZE = 10 * 1024 * 1024, REPS = 3, READ_REPS = 5;
const small = Buffer.alloc(FILE_SIZE);
for (let i = 0; i < FILE_SIZE; i++) small[i] = (i * 31 + 7) & 0xff;
const big = Buffer.alloc(BIG_SIZE);
for (let i = 0; i < BIG_SIZE; i++) big[i] = ((i * 7 + 3) ^ (i >>> 12)) & 0xff;

function removeDb(path) {
  for (const s of ['', '-wal', '-shm']) rmSync(path + s, { force: true });
}

// A new database for each use: the SDK's engine keeps databases it opened
// per path in the process, so a removed file's name is never reused.
let serial = 0;
async function fresh(name) {
  const path = join(dir, `${serial++}-${name}`);
  removeDb(path);
  const a = await AgentFS.open({ path });
  await a.fs.mkdir('/files');
  return [a, path];
}

async function writeFiles(a) {
  for (let i = 0; i < NFILES; i++) {
    small[0] = i & 0xff;
    await a.fs.writeFile(`/files/f${String(i).padStart(4, '0')}.txt`, small);
  }
}

async function best(fn, reps = REPS) {
  let b = Infinity;
  for (let r = 0; r < reps; r++) b = Math.min(b, await fn());
  return b;
}

function print(name, ms) { console.log(`${name} ${ms.toFixed(3)}`); }

print('files_write_each', await best(async () => {
  const [a, path] = await fresh('agentfs-each.db');
  const t0 = performance.now();
  await writeFiles(a);
  const t = performance.now() - t0;
  await a.close();
  removeDb(path);
  return t;
}));

const [a, path] = await fresh('agentfs-read.db');
await writeFiles(a);
print('files_read', await best(async () => {
  const t0 = performance.now();
  for (let i = 0; i < NFILES; i++) {
    const got = await a.fs.readFile(`/files/f${String(i).padStart(4, '0')}.txt`);
    if (got.length !== FILE_SIZE) throw new Error('short read');
  }
  return performance.now() - t0;
}, READ_REPS));
print('big_write', await best(async () => {
  const t0 = performance.now();
  await a.fs.writeFile('/big.bin', big);
  return performance.now() - t0;
}));
print('big_read', await best(async () => {
  const t0 = performance.now();
  const got = await a.fs.readFile('/big.bin');
  const t = performance.now() - t0;
  if (Buffer.compare(Buffer.from(got), big) !== 0) throw new Error('big file differs');
  return t;
}, READ_REPS));
await a.close();
removeDb(path);

print('open_close', await best(async () => {
  const n = 10;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const p = join(dir, `agentfs-open-${serial}-${i}.db`);
    const x = await AgentFS.open({ path: p });
    await x.close();
  }
  const t = (performance.now() - t0) / n;
  for (let i = 0; i < n; i++) removeDb(join(dir, `agentfs-open-${serial}-${i}.db`));
  serial++;
  return t;
}, READ_REPS));
