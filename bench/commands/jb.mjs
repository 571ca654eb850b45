// jb.mjs - the same rows in just-bash (npm), in process in node: loads the
// inputs into its in-memory filesystem, then times bash.exec(script).
// Usage: node jb.mjs NODE_MODULES DATADIR NAME=SCRIPT...
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
const [modules, dir, ...rows] = process.argv.slice(2);
const { Bash } = await import(join(modules, "just-bash", "dist", "bundle", "index.js"));
const files = {};
for (const f of ["text1m", "text10m", "json10m"]) files[`/data/${f}`] = readFileSync(join(dir, f), "utf8");
if (process.env.JB_BIG === "1") files["/data/text100m"] = readFileSync(join(dir, "text100m"), "utf8");
for (const d of readdirSync(join(dir, "tree")))
  for (const f of readdirSync(join(dir, "tree", d))) files[`/data/tree/${d}/${f}`] = "x\n";
// Output and string limits raised past the 100 MB inputs (its defaults stop
// `cat text100m | ...` at 64 MiB and grep at a million lines); a row that
// still fails prints "failed".
const bash = new Bash({ files, cwd: "/data",
  executionLimits: { maxCommandCount: 1e9, maxLoopIterations: 1e9, maxExecutionTimeMs: 600000,
                     maxOutputSize: 500e6, maxStringLength: 500e6, maxArrayElements: 1e8 } });
for (const row of rows) {
  const i = row.indexOf("=");
  const name = row.slice(0, i), script = row.slice(i + 1);
  if (script.includes("100m") && process.env.JB_BIG !== "1") { console.log(`${name} skipped`); continue; }
  const runs = 3, t = [];
  let failed = false;
  for (let r = 0; r < runs && !failed; r++) {
    const t0 = performance.now();
    const res = await bash.exec(script);
    t.push(performance.now() - t0);
    if (r === 0 && res.exitCode !== 0) {
      console.error(`jb ${name}: exit ${res.exitCode}: ${res.stderr.slice(0, 200)}`);
      failed = true;
    }
  }
  if (failed) { console.log(`${name} failed`); continue; }
  t.sort((a, b) => a - b);
  console.log(`${name} ${t[0].toFixed(3)} ${t[1].toFixed(3)}`);
}
