// client.mjs - drives `sbx mcp` with the official MCP TypeScript SDK client
// (@modelcontextprotocol/sdk), over stdio and over Streamable HTTP, the way an
// agent host does. Run by scripts/suites/mcp.sh:
//
//   node client.mjs SBX TMPDIR
//
// Prints one line per check ("ok NAME" or "not ok NAME: detail"); the suite
// counts them.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [sbx, tmp] = process.argv.slice(2);
let failed = 0;

function check(name, cond, detail = "") {
  if (cond) console.log(`ok ${name}`);
  else {
    failed++;
    console.log(`not ok ${name}: ${detail}`);
  }
}

const text = (r) => (r.content || []).filter((c) => c.type === "text").map((c) => c.text).join("");

async function call(client, name, args, opts) {
  return client.callTool({ name, arguments: args }, undefined, opts);
}

// Expects a JSON-RPC error from the call; returns it (or null).
async function callError(client, name, args) {
  try {
    const r = await call(client, name, args);
    return { result: r };
  } catch (e) {
    return { error: e };
  }
}

// The checks every transport must pass. tag names the transport.
async function common(client, tag) {
  const t = (n) => `${tag}: ${n}`;
  const init = client.getServerVersion();
  check(t("initialize: server name"), init && init.name === "sbx", JSON.stringify(init));
  const caps = client.getServerCapabilities();
  check(t("initialize: tools and resources capabilities"), caps && caps.tools && caps.resources, JSON.stringify(caps));

  const { tools } = await client.listTools();
  const names = tools.map((x) => x.name).sort();
  check(t("tools/list names"),
    JSON.stringify(names) === JSON.stringify(["bash", "download", "python", "snapshot", "str_replace_based_edit_tool", "upload"]),
    JSON.stringify(names));
  check(t("every tool has a description and an object schema"),
    tools.every((x) => x.description && x.description.length > 40 && x.inputSchema.type === "object"));

  // bash: state across calls
  let r = await call(client, "bash", { command: "cd /tmp && X=41 && f() { echo fn$1; }; echo hi" });
  check(t("bash: stdout and exit status"), text(r) === "hi\n[exit status 0]" && r.isError === false, JSON.stringify(r));
  r = await call(client, "bash", { command: "pwd; echo $((X+1)); f 7" });
  check(t("bash: cwd, variables and functions persist"), text(r).startsWith("/tmp\n42\nfn7\n"), text(r));
  r = await call(client, "bash", { command: "echo out; echo err >&2; exit 3" });
  check(t("bash: stderr and a failing status"), text(r) === "out\n[stderr]\nerr\n[exit status 3]" && r.isError === true, text(r));
  // a background job outlives its tool call and is waited for by a later one
  r = await call(client, "bash", { command: "(sleep 0.3; echo job-done > /tmp/job.txt) & echo started" });
  check(t("bash: a background job returns at once"), text(r).startsWith("started\n"), text(r));
  r = await call(client, "bash", { command: "jobs -p | wc -l; wait; cat /tmp/job.txt" });
  check(t("bash: a later call waits for the job and reads what it wrote"), text(r).startsWith("1\njob-done\n"), text(r));
  r = await call(client, "bash", { restart: true });
  r = await call(client, "bash", { command: "pwd; echo \"[$X]\"" });
  check(t("bash: restart gives a fresh shell"), text(r).startsWith("/data\n[]\n"), text(r));
  r = await call(client, "bash", { command: "sleep 5; echo never", timeout: 1 });
  check(t("bash: per-call timeout"), /\[exit status 126\] \[stopped: the timeout limit/.test(text(r)) && !text(r).includes("never"), text(r));

  // truncation (the server runs with --max-output 2000)
  r = await call(client, "bash", { command: "seq 1 5000" });
  const m = /\[\.\.\. (\d+) bytes \((\d+) lines\) cut; the full output is in (\/tmp\/\.mcp-output\/\d+\.txt) \.\.\.\]/.exec(text(r));
  check(t("bash: long output is cut with a note"), m && text(r).startsWith("1\n2\n") && text(r).includes("\n5000\n[exit status 0]"), text(r).slice(0, 200));
  check(t("bash: the cut output is about max-output"), text(r).length < 2300, `${text(r).length}`);
  if (m) {
    const full = await call(client, "bash", { command: `wc -l < ${m[3]}; tail -n 1 ${m[3]}` });
    check(t("bash: the whole output was saved"), text(full).startsWith("5000\n5000\n"), text(full));
    const shown = text(r).split("\n").filter((l) => /^\d+$/.test(l)).length;
    check(t("bash: cut lines are counted"), shown + Number(m[2]) === 5000, `${shown} + ${m[2]}`);
  }

  // python
  r = await call(client, "python", { code: "import os\nn = 6 * 7\nprint('hello')\nn" });
  check(t("python: stdout and the trailing expression"), text(r) === "hello\n[value]\n42" && !r.isError, text(r));
  r = await call(client, "python", { code: "n + 1" });
  check(t("python: state persists in the context"), text(r).endsWith("43"), text(r));
  r = await call(client, "python", { code: "n", context: "other" });
  check(t("python: contexts are separate"), r.isError && text(r).includes("NameError"), text(r));
  r = await call(client, "python", { code: "def g():\n    1/0\ng()" });
  check(t("python: exception with traceback"), r.isError && text(r).includes("Traceback") && text(r).includes("ZeroDivisionError"), text(r));
  await call(client, "bash", { command: "echo from-bash > /data/shared.txt" });
  r = await call(client, "python", { code: "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.show()\n'plotted'" });
  const img = r.content.find((c) => c.type === "image");
  check(t("python: a figure comes back as PNG image content"),
    !r.isError && text(r).endsWith("'plotted'") && img && img.mimeType === "image/png" &&
      Buffer.from(img.data, "base64").subarray(0, 4).toString("latin1") === "\x89PNG", text(r));
  r = await call(client, "python", { code: "open('/data/shared.txt').read().strip()" });
  check(t("python: sees the files bash wrote"), text(r).endsWith("'from-bash'"), text(r));

  // the editor
  const E = "str_replace_based_edit_tool";
  r = await call(client, E, { command: "create", path: "/data/e/a.py", file_text: "one\ntwo\ntwo\nfour\n" });
  check(t("editor: create"), !r.isError && text(r).includes("created"), text(r));
  r = await call(client, E, { command: "view", path: "/data/e/a.py", view_range: [2, 3] });
  check(t("editor: view with view_range and line numbers"), text(r) === "     2\ttwo\n     3\ttwo\n", JSON.stringify(text(r)));
  r = await call(client, E, { command: "str_replace", path: "/data/e/a.py", old_str: "two", new_str: "2" });
  check(t("editor: str_replace refuses a non-unique match and counts"), r.isError && /occurs 2 times.*lines 2, 3/.test(text(r)), text(r));
  r = await call(client, E, { command: "str_replace", path: "/data/e/a.py", old_str: "nine", new_str: "9" });
  check(t("editor: str_replace without a match"), r.isError && text(r).includes("does not appear"), text(r));
  r = await call(client, E, { command: "str_replace", path: "/data/e/a.py", old_str: "two\nfour", new_str: "three\nfour" });
  check(t("editor: str_replace with a unique match"), !r.isError && text(r).includes("     3\tthree"), text(r));
  r = await call(client, E, { command: "insert", path: "/data/e/a.py", insert_line: 0, insert_text: "zero" });
  r = await call(client, "bash", { command: "cat /data/e/a.py" });
  check(t("editor: insert at the top"), text(r).startsWith("zero\none\ntwo\nthree\nfour\n"), text(r));
  r = await call(client, E, { command: "undo_edit", path: "/data/e/a.py" });
  r = await call(client, E, { command: "undo_edit", path: "/data/e/a.py" });
  r = await call(client, "bash", { command: "cat /data/e/a.py" });
  check(t("editor: undo_edit twice"), text(r).startsWith("one\ntwo\ntwo\nfour\n"), text(r));
  r = await call(client, E, { command: "view", path: "/data/e" });
  check(t("editor: a directory is listed"), text(r).includes("/data/e/a.py\n"), text(r));
  r = await call(client, E, { command: "view", path: "/data/../../etc/passwd" });
  check(t("editor: a path above / is refused"), r.isError && text(r).includes("refused path"), text(r));
  r = await call(client, E, { command: "view", path: "data/e/a.py" });
  check(t("editor: a relative path is refused"), r.isError && text(r).includes("refused path"), text(r));
  r = await call(client, "download", { path: "/../x" });
  check(t("download: a path above / is refused"), r.isError && text(r).includes("refused path"), text(r));

  // upload and download
  r = await call(client, "upload", { path: "/data/bin/x.bin", content: Buffer.from([0, 255, 1, 2, 10]).toString("base64"), encoding: "base64" });
  check(t("upload: base64"), !r.isError && text(r).includes("Wrote 5 bytes"), text(r));
  r = await call(client, "download", { path: "/data/bin/x.bin" });
  check(t("download: binary comes back as base64"), text(r) === "AP8BAgo=" && r.structuredContent.encoding === "base64", JSON.stringify(r));
  r = await call(client, "upload", { path: "/data/t.txt", content: "héllo\n" });
  r = await call(client, "download", { path: "/data/t.txt" });
  check(t("download: text as text"), text(r) === "héllo\n", text(r));
  r = await call(client, "download", { path: "/data/missing" });
  check(t("download: a missing file is a tool error"), r.isError && text(r).includes("No such file"), text(r));

  // resources
  const { resources } = await client.listResources();
  check(t("resources/list has the files"), resources.some((x) => x.uri === "sbx:///data/t.txt"), JSON.stringify(resources.slice(0, 5)));
  const rr = await client.readResource({ uri: "sbx:///data/t.txt" });
  check(t("resources/read text"), rr.contents[0].text === "héllo\n", JSON.stringify(rr));
  const rb = await client.readResource({ uri: "sbx:///data/bin/x.bin" });
  check(t("resources/read binary as a blob"), rb.contents[0].blob === "AP8BAgo=", JSON.stringify(rb));
  let err = null;
  try { await client.readResource({ uri: "sbx:///data/nope" }); } catch (e) { err = e; }
  check(t("resources/read of a missing file is an error"), err && err.code === -32002, String(err));

  // snapshots
  await call(client, "bash", { command: "echo v1 > /data/s.txt" });
  r = await call(client, "snapshot", { action: "export", name: "before" });
  check(t("snapshot: export"), !r.isError && text(r).includes("Saved snapshot before"), text(r));
  await call(client, "bash", { command: "echo v2 > /data/s.txt; touch /data/later" });
  r = await call(client, "snapshot", { action: "list" });
  check(t("snapshot: list"), /^before\t\d+ bytes\t/.test(text(r)), text(r));
  r = await call(client, "snapshot", { action: "restore", name: "before" });
  check(t("snapshot: restore"), !r.isError, text(r));
  r = await call(client, "bash", { command: "cat /data/s.txt; ls /data/later" });
  check(t("snapshot: restore brings the files back"), text(r).startsWith("v1\n") && text(r).includes("No such file"), text(r));
  r = await call(client, "snapshot", { action: "restore", name: "../x" });
  check(t("snapshot: a bad name is refused"), r.isError && text(r).includes("invalid snapshot name"), text(r));

  // protocol errors
  let e = await callError(client, "no_such_tool", {});
  check(t("unknown tool: JSON-RPC error -32602"), e.error && e.error.code === -32602 && /Unknown tool/.test(e.error.message), JSON.stringify(e.result || String(e.error)));
  e = await callError(client, "bash", { command: 5 });
  check(t("bad arguments: -32602"), e.error && e.error.code === -32602 && /'command' must be a string/.test(e.error.message), String(e.error));
  e = await callError(client, "python", {});
  check(t("missing argument: -32602"), e.error && e.error.code === -32602 && /'code' is required/.test(e.error.message), String(e.error));
  e = await callError(client, "bash", { command: "true", colour: 1 });
  check(t("unknown argument: -32602"), e.error && e.error.code === -32602, String(e.error));

  // progress: the server ticks once a second while a command runs (HTTP: as
  // events of an SSE response to the POST)
  const ticks = [];
  r = await call(client, "bash", { command: "sleep 2.5; echo done" }, { onprogress: (p) => ticks.push(p) });
  check(t("progress notifications while a command runs"),
    text(r).startsWith("done") && ticks.length >= 2 && ticks[1].progress > ticks[0].progress && /running for/.test(ticks[0].message || ""),
    JSON.stringify(ticks) + text(r));
  const pticks = [];
  r = await call(client, "python", { code: "import time\ntime.sleep(1.6)\n'slept'" }, { onprogress: (p) => pticks.push(p) });
  check(t("progress notifications while Python runs"), text(r).endsWith("'slept'") && pticks.length >= 1, JSON.stringify(pticks) + text(r));

  // cancellation: the command ends, and the next call runs at once
  const ac = new AbortController();
  const started = Date.now();
  const p = call(client, "bash", { command: "sleep 20; echo never" }, { signal: ac.signal, timeout: 60000 }).then(() => "resolved", (x) => "rejected");
  await new Promise((res) => setTimeout(res, 700));
  ac.abort("test");
  const outcome = await p;
  r = await call(client, "bash", { command: "echo after" });
  const took = Date.now() - started;
  check(t("cancellation: the aborted call rejects"), outcome === "rejected", outcome);
  check(t("cancellation: the command ended (next call at once)"), text(r).startsWith("after\n") && took < 8000, `${took} ms`);
}

// What the servers wrote on stderr: sanitizer reports must not appear there.
const serverStderr = [];

async function stdioClient(args, env) {
  const transport = new StdioClientTransport({ command: sbx, args, env: { ...process.env, ...env }, stderr: "pipe" });
  const log = { text: "" };
  serverStderr.push(log);
  transport.stderr.on("data", (d) => { log.text += d; });
  const client = new Client({ name: "sbx-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function httpClient(url, opts = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), opts);
  const client = new Client({ name: "sbx-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

function startServer(args) {
  return new Promise((resolve, reject) => {
    const proc = spawn(sbx, args, { stdio: ["ignore", "ignore", "pipe"] });
    let buf = "";
    const log = { text: "" };
    serverStderr.push(log);
    proc.stderr.on("data", (d) => {
      buf += d;
      log.text += d;
      if (buf.includes("listening on")) resolve(proc);
    });
    proc.on("exit", (code) => reject(new Error(`server exited ${code}: ${buf}`)));
  });
}

async function main() {
  // ---- stdio, a temporary sandbox ----------------------------------------------
  let client = await stdioClient(["mcp", "--max-output", "2000"]);
  await common(client, "stdio");
  await client.close();

  // ---- stdio with --dir: a session is a file, resumable by id ---------------------
  const dir = path.join(tmp, "sessions");
  fs.mkdirSync(dir);
  client = await stdioClient(["mcp", "--dir", dir]);
  await call(client, "bash", { command: "echo kept > /data/k.txt" });
  let fr = await call(client, "snapshot", { action: "fork" });
  const forked = fr.structuredContent && fr.structuredContent.session;
  await client.close();
  const dbs = fs.readdirSync(dir).filter((f) => f.endsWith(".db"));
  check("stdio --dir: one database per session (and the fork)", dbs.length === 2, JSON.stringify(dbs));
  const first = dbs.map((f) => f.slice(0, -3)).find((id) => id !== forked);
  client = await stdioClient(["mcp", "--dir", dir, "--session", first]);
  let rr = await call(client, "bash", { command: "cat /data/k.txt" });
  check("stdio --dir --session: the session resumes", text(rr).startsWith("kept\n"), text(rr));
  await client.close();
  client = await stdioClient(["mcp", "--dir", dir, "--session", forked]);
  rr = await call(client, "bash", { command: "cat /data/k.txt" });
  check("snapshot fork: the fork is a session of its own", text(rr).startsWith("kept\n"), text(rr));
  await client.close();

  // ---- Streamable HTTP, a shared database, a bearer token ---------------------------
  const port = 20000 + Math.floor(Math.random() * 20000);
  const url = `http://127.0.0.1:${port}/mcp`;
  const db = path.join(tmp, "shared.db");
  const server = await startServer([db, "mcp", "--http", `127.0.0.1:${port}`, "--token", "s3cret", "--max-output", "2000"]);
  try {
    const auth = { requestInit: { headers: { Authorization: "Bearer s3cret" } } };
    let { client: c1, transport: t1 } = await httpClient(url, auth);
    check("http: a session id was given", typeof t1.sessionId === "string" && t1.sessionId.length >= 16, String(t1.sessionId));
    await common(c1, "http");
    // a second session shares the database but not the shell
    await call(c1, "bash", { command: "cd /tmp; Y=1; echo s1 > /data/from1" });
    const { client: c2, transport: t2 } = await httpClient(url, auth);
    check("http: sessions get different ids", t2.sessionId !== t1.sessionId);
    let x = await call(c2, "bash", { command: "pwd; echo \"[$Y]\"; cat /data/from1" });
    check("http: sessions share the database, not the shell", text(x).startsWith("/data\n[]\ns1\n"), text(x));
    const sid = t2.sessionId;
    await t2.terminateSession();
    const resp = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: "Bearer s3cret", "Mcp-Session-Id": sid },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    check("http: DELETE ended the session (404 after)", resp.status === 404, `${resp.status}`);
    const noauth = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    check("http: no token is 401", noauth.status === 401 && /Bearer/.test(noauth.headers.get("www-authenticate") || ""), `${noauth.status}`);
    let refused = null;
    try { await httpClient(url, { requestInit: { headers: { Authorization: "Bearer wrong" } } }); } catch (e) { refused = e; }
    check("http: the SDK client with a wrong token is refused", refused !== null, "connected");
    const get = await fetch(url, { headers: { Accept: "text/event-stream", Authorization: "Bearer s3cret", "Mcp-Session-Id": t1.sessionId } });
    check("http: GET is 405 (no SSE stream)", get.status === 405, `${get.status}`);
    await c1.close();
  } finally {
    server.kill("SIGTERM");
  }
  // ---- HTTP with --dir: a restarted server resumes a session by its id ---------------
  const dir2 = path.join(tmp, "httpdir");
  fs.mkdirSync(dir2);
  const port2 = port + 1;
  const url2 = `http://127.0.0.1:${port2}/mcp`;
  let s2 = await startServer(["mcp", "--dir", dir2, "--http", `127.0.0.1:${port2}`]);
  let sessionId;
  try {
    const { client: c, transport } = await httpClient(url2);
    await call(c, "bash", { command: "echo persisted > /data/p.txt" });
    sessionId = transport.sessionId;
  } finally {
    s2.kill("SIGTERM");
    await new Promise((res) => s2.on("exit", res));
  }
  s2 = await startServer(["mcp", "--dir", dir2, "--http", `127.0.0.1:${port2}`]);
  try {
    const { client: c } = await httpClient(url2, { sessionId });
    const x = await call(c, "bash", { command: "cat /data/p.txt" });
    check("http --dir: a restarted server resumes the session by id", text(x).startsWith("persisted\n"), text(x));
  } finally {
    s2.kill("SIGTERM");
  }
  await new Promise((res) => setTimeout(res, 500)); // the last server's exit report
  const reports = serverStderr.map((l) => l.text).filter((x) => /Sanitizer|runtime error/.test(x));
  check("the servers' stderr has no sanitizer report", reports.length === 0, reports.join("\n").slice(0, 3000));
  console.log(`# client checks done, ${failed} failed`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.log(`not ok the client run: ${e && e.stack ? e.stack : e}`);
    process.exit(1);
  },
);
