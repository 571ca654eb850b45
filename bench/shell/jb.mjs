// jb.mjs - the shell rows of run.sh in just-bash (npm), in process in node:
// a warm `echo hi` exec, the 1,000-iteration arithmetic loop, and a new Bash
// plus its first command. Prints "NAME best median" (us for echo and create,
// ms for loop), like bench_shell.c.
// Usage: node jb.mjs NODE_MODULES [ITER_ECHO]
import { join } from "node:path";
const [modules, itersArg] = process.argv.slice(2);
const { Bash } = await import(join(modules, "just-bash", "dist", "bundle", "index.js"));
const iters = Number(itersArg || 2000);
const limits = { maxCommandCount: 1e9, maxLoopIterations: 1e9, maxExecutionTimeMs: 600000 };
const report = (name, t, scale) => {
  t.sort((a, b) => a - b);
  console.log(`${name} ${(t[0] / scale).toFixed(3)} ${(t[t.length >> 1] / scale).toFixed(3)}`);
};
const check = (res, want, what) => {
  if (res.exitCode !== 0 || res.stdout !== want) throw new Error(`just-bash ${what}: ${JSON.stringify(res)}`);
};
const bash = new Bash({ cwd: "/", executionLimits: limits });
for (let i = 0; i < 50; i++) check(await bash.exec("echo hi"), "hi\n", "echo");
let t = [];
for (let i = 0; i < iters; i++) {
  const t0 = performance.now();
  const res = await bash.exec("echo hi");
  t.push((performance.now() - t0) * 1000);
  check(res, "hi\n", "echo");
}
report("echo", t, 1);
t = [];
for (let i = 0; i < 10; i++) {
  const t0 = performance.now();
  const res = await bash.exec("x=0; for ((i=0;i<1000;i++)); do x=$((x+i)); done; echo $x");
  t.push(performance.now() - t0);
  check(res, "499500\n", "loop");
}
report("loop", t, 1);
t = [];
for (let i = 0; i < 50; i++) {
  const t0 = performance.now();
  const b = new Bash({ cwd: "/", executionLimits: limits });
  const res = await b.exec("echo hi");
  t.push((performance.now() - t0) * 1000);
  check(res, "hi\n", "create");
}
report("create", t, 1);
