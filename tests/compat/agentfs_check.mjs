// agentfs_check.mjs - AgentFS compatibility, direction 2: opens a database
// that sbx wrote with the AgentFS tools themselves (npm agentfs-sdk) and
// checks it against what sbx was told to write; then writes a little through
// the SDK so the suite can check that sbx reads the SDK's writes back.
//
// Usage: node agentfs_check.mjs NODE_MODULES DB EXPECT.json
// EXPECT.json: { dirs: {path: [names]}, files: {path: hostFileWithBytes},
//   symlinks: {path: target}, modes: {path: mode}, kv: {key: jsonText},
//   calls: [{id, name, status, parameters, result, error}],
//   write: {path, content, kvKey, kvValue, tool} }
// Prints one "ok - ..." or "not ok - ..." line per check and exits 1 if any
// check failed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const [modules, db, expectPath] = process.argv.slice(2);
const { AgentFS } = await import(
  pathToFileURL(join(modules, 'agentfs-sdk/dist/index_node.js')).href);
const expect = JSON.parse(readFileSync(expectPath, 'utf8'));

let failed = 0;
// Runs one group of checks; an exception fails the group, not the script.
async function group(what, fn) {
  try {
    await fn();
  } catch (e) {
    failed++;
    console.log(`not ok - ${what}: ${e.code ?? ''} ${e.message}`);
  }
}
function check(cond, what, detail) {
  if (cond) console.log(`ok - ${what}`);
  else {
    failed++;
    console.log(`not ok - ${what}${detail !== undefined ? ': ' + detail : ''}`);
  }
}

const agent = await AgentFS.open({ path: db });
try {
  for (const [dir, names] of Object.entries(expect.dirs)) {
    await group(`readdir ${dir}`, async () => {
      const got = (await agent.fs.readdir(dir)).slice().sort();
      check(isDeepStrictEqual(got, names.slice().sort()), `readdir ${dir}`, JSON.stringify(got));
    });
  }
  for (const [path, host] of Object.entries(expect.files)) {
    await group(`file ${path}`, async () => {
      const want = readFileSync(host);
      const got = await agent.fs.readFile(path);
      check(Buffer.compare(Buffer.from(got), want) === 0, `bytes of ${path} (${want.length})`,
            `got ${got.length} bytes`);
      const st = await agent.fs.stat(path);
      check(st.isFile() && st.size === want.length, `stat ${path}`, JSON.stringify(st));
    });
  }
  for (const [path, target] of Object.entries(expect.symlinks)) {
    // (the SDK 0.6.4 does not follow symlinks in readFile: ENOSYS)
    await group(`symlink ${path}`, async () => {
      const st = await agent.fs.lstat(path);
      check(st.isSymbolicLink(), `lstat ${path} is a symlink`, st.mode.toString(8));
      check((await agent.fs.readlink(path)) === target, `readlink ${path}`);
    });
  }
  for (const [path, mode] of Object.entries(expect.modes)) {
    await group(`mode ${path}`, async () => {
      const st = await agent.fs.lstat(path);
      check(st.mode === mode, `mode of ${path}`, `${st.mode.toString(8)} != ${mode.toString(8)}`);
    });
  }
  await group('kv', async () => {
    const keys = (await agent.kv.list('')).map((e) => e.key).sort();
    check(isDeepStrictEqual(keys, Object.keys(expect.kv).sort()), 'kv keys', JSON.stringify(keys));
    for (const [key, text] of Object.entries(expect.kv)) {
      const got = await agent.kv.get(key);
      check(isDeepStrictEqual(got, JSON.parse(text)), `kv ${key}`, JSON.stringify(got));
    }
  });
  for (const want of expect.calls) {
    await group(`tool call ${want.id}`, async () => {
      const got = await agent.tools.get(want.id);
      check(got !== undefined, `tool call ${want.id} exists`);
      if (!got) return;
      check(got.name === want.name && got.status === want.status,
            `tool call ${want.id} name/status`, `${got.name}/${got.status}`);
      check(isDeepStrictEqual(got.parameters ?? null, want.parameters),
            `tool call ${want.id} parameters`, JSON.stringify(got.parameters));
      check(isDeepStrictEqual(got.result ?? null, want.result),
            `tool call ${want.id} result`, JSON.stringify(got.result));
      check((got.error ?? null) === want.error, `tool call ${want.id} error`, got.error);
      const pending = want.status === 'pending';
      check(pending ? got.completed_at === undefined
                    : typeof got.completed_at === 'number' && got.completed_at >= got.started_at,
            `tool call ${want.id} times`, `${got.started_at} ${got.completed_at}`);
    });
  }
  // The other way: the SDK writes, and the suite reads it back with sbx.
  await group('SDK writes', async () => {
    const w = expect.write;
    await agent.fs.writeFile(w.path, w.content);
    await agent.kv.set(w.kvKey, w.kvValue);
    const id = await agent.tools.start(w.tool, { from: 'node' });
    await agent.tools.success(id, { done: true });
    check(true, 'SDK writes a file, a kv value and a tool call');
  });
} finally {
  await agent.close();
}
process.exit(failed ? 1 : 0);
