"""sandbox.agent_tools(): tool definitions in the Anthropic, OpenAI and MCP
shapes, the dispatcher, and the same texts (truncation included) as the
`sbx mcp` server, checked against that server itself."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from localsandbox import AgentTools, LocalSandbox, ToolCallError
from localsandbox.agent_tools import truncate_output

SBX = Path(__file__).resolve().parents[2] / "build" / "sbx"
EDIT = "str_replace_based_edit_tool"


def mcp_server(requests: list[dict[str, Any]], *options: str) -> list[dict[str, Any]]:
    """Sends JSON-RPC requests to `sbx mcp` over stdio; its responses by id."""
    lines = "".join(json.dumps({"jsonrpc": "2.0", "id": i + 1, **r}) + "\n" for i, r in enumerate(requests))
    proc = subprocess.run([str(SBX), "mcp", *options], input=lines, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    by_id = {m["id"]: m for m in map(json.loads, proc.stdout.splitlines())}
    return [by_id[i + 1] for i in range(len(requests))]


def mcp(tools: AgentTools, name: str, **args: Any) -> dict[str, Any]:
    return tools.dispatch({"name": name, "arguments": args})


def text(result: dict[str, Any]) -> str:
    return result["content"][0]["text"]


@pytest.fixture
def tools(sandbox: LocalSandbox) -> AgentTools:
    return sandbox.agent_tools("mcp", max_output=2000)


# ---- definitions -----------------------------------------------------------------------


def test_definitions_in_each_format(sandbox: LocalSandbox) -> None:
    a = sandbox.agent_tools("anthropic").definitions
    o = sandbox.agent_tools("openai").definitions
    m = sandbox.agent_tools("mcp").definitions
    names = ["bash", "python", EDIT, "upload", "download"]
    assert [d["name"] for d in a] == names
    assert all(set(d) == {"name", "description", "input_schema"} for d in a)
    assert [d["function"]["name"] for d in o] == names
    assert all(d["type"] == "function" and d["function"]["parameters"]["type"] == "object" for d in o)
    assert all(set(d) == {"name", "description", "inputSchema"} for d in m)
    assert a[0]["input_schema"] == m[0]["inputSchema"] == o[0]["function"]["parameters"]


def test_definitions_match_the_mcp_server(sandbox: LocalSandbox) -> None:
    (listed,) = mcp_server([{"method": "tools/list"}])
    server = {t["name"]: t for t in listed["result"]["tools"]}
    for d in sandbox.agent_tools("mcp").definitions:
        assert d["description"] == server[d["name"]]["description"]
        assert d["inputSchema"] == server[d["name"]]["inputSchema"]


def test_unknown_format() -> None:
    with LocalSandbox() as s, pytest.raises(ValueError, match="format must be one of"):
        s.agent_tools("gemini")


def test_anthropic_builtin_tool_shapes(sandbox: LocalSandbox) -> None:
    t = sandbox.agent_tools("anthropic")
    assert [d["name"] for d in t.anthropic_builtin_definitions()] == ["bash", EDIT]
    r = t.dispatch({"type": "tool_use", "id": "t1", "name": "bash", "input": {"command": "cd /tmp; Z=3"}})
    assert r == {"type": "tool_result", "tool_use_id": "t1", "content": "[exit status 0]", "is_error": False}
    r = t.dispatch({"type": "tool_use", "id": "t2", "name": "bash", "input": {"restart": True}})
    assert r["content"] == "The shell was restarted (cwd /data)."
    block = SimpleNamespace(type="tool_use", id="t3", name="bash", input={"command": 'pwd; echo "[$Z]"'})
    assert t.dispatch(block)["content"] == "/data\n[]\n[exit status 0]"
    r = t.dispatch({"type": "tool_use", "id": "t4", "name": EDIT,
                    "input": {"command": "create", "path": "/data/n.txt", "file_text": "x\n"}})
    assert r["content"] == "File created at /data/n.txt." and r["is_error"] is False


def test_openai_chat_and_responses_shapes(sandbox: LocalSandbox) -> None:
    t = sandbox.agent_tools("openai")
    call = {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": '{"command": "echo hi"}'}}
    assert t.dispatch(call) == {"role": "tool", "tool_call_id": "c1", "content": "hi\n[exit status 0]"}
    item = {"type": "function_call", "call_id": "c2", "name": "bash", "arguments": '{"command": "echo yo"}'}
    assert t.dispatch(item) == {"type": "function_call_output", "call_id": "c2", "output": "yo\n[exit status 0]"}
    bad = {"id": "c3", "type": "function", "function": {"name": "bash", "arguments": "{not json"}}
    assert t.dispatch(bad)["content"].startswith("invalid arguments: not JSON")


# ---- bash and truncation ------------------------------------------------------------------


def test_bash_state_exit_status_and_stderr(tools: AgentTools) -> None:
    assert text(mcp(tools, "bash", command="cd /tmp; f() { echo f$1; }")) == "[exit status 0]"
    r = mcp(tools, "bash", command="pwd; f 2; echo oops >&2; exit 4")
    assert text(r) == "/tmp\nf2\n[stderr]\noops\n[exit status 4]" and r["isError"] is True
    assert r["structuredContent"] == {"exit_code": 4}


def test_bash_limits_answer_like_the_server(tools: AgentTools) -> None:
    calls = [{"command": "echo before; sleep 5", "timeout": 0.3},
             {"command": "echo x; ls /nope; exit 3"},
             {"command": "f() { f; }; echo go; f"}]
    served = mcp_server([{"method": "tools/call", "params": {"name": "bash", "arguments": a}} for a in calls],
                        "--max-output", "2000")
    for args, resp in zip(calls, served):
        mine = mcp(tools, "bash", **args)
        assert text(mine) == resp["result"]["content"][0]["text"], args
        assert mine["isError"] is resp["result"]["isError"] is True
    assert text(mine).startswith("go\n[stderr]\n") and "function_depth limit" in text(mine)


def test_truncation_is_the_servers(sandbox: LocalSandbox, tools: AgentTools) -> None:
    (served,) = mcp_server([{"method": "tools/call", "params": {"name": "bash", "arguments": {"command": "seq 1 5000"}}}],
                           "--max-output", "2000")
    mine = mcp(tools, "bash", command="seq 1 5000")
    assert text(mine) == served["result"]["content"][0]["text"]
    assert "[... " in text(mine) and "the full output is in /tmp/.mcp-output/1.txt ...]" in text(mine)
    assert sandbox.read_file("/tmp/.mcp-output/1.txt").count("\n") == 5000
    second = mcp(tools, "bash", command="seq 1 5000")
    assert "/tmp/.mcp-output/2.txt" in text(second)


def test_truncate_output_rules() -> None:
    assert truncate_output(b"short", 1000, "x") == b"short"
    data = "".join(f"line {i} é\n" for i in range(1000)).encode()
    cut = truncate_output(data, 1000, "WHERE")
    head, _, rest = cut.partition(b"[... ")
    marker, _, tail = rest.partition(b"\n")
    assert head.endswith(b"\n") and data.startswith(head) and 250 <= len(head) <= 500
    assert data.endswith(tail) and tail.startswith(b"line ") and 250 <= len(tail) <= 500
    words = marker.split(b" ")
    assert words[1:3] == [b"bytes", words[2]] and marker.endswith(b"cut; WHERE ...]")
    n_bytes, n_lines = int(words[0]), int(words[2].lstrip(b"("))
    assert len(head) + n_bytes + len(tail) == len(data)
    assert data.count(b"\n") == head.count(b"\n") + n_lines + tail.count(b"\n")
    cut.decode("utf-8")  # never inside a UTF-8 sequence
    one_line = "é" * 3000  # no newline at all: cut on character boundaries
    truncate_output(one_line.encode(), 1001, "w").decode("utf-8")


# ---- the editor, upload, download ------------------------------------------------------------


def test_editor_commands(tools: AgentTools) -> None:
    assert text(mcp(tools, EDIT, command="create", path="/data/a.py", file_text="one\ntwo\ntwo\n")) == "File created at /data/a.py."
    assert text(mcp(tools, EDIT, command="view", path="/data/a.py", view_range=[2, -1])) == "     2\ttwo\n     3\ttwo\n"
    r = mcp(tools, EDIT, command="str_replace", path="/data/a.py", old_str="two", new_str="2")
    assert r["isError"] and "occurs 2 times in /data/a.py (lines 2, 3)" in text(r)
    r = mcp(tools, EDIT, command="str_replace", path="/data/a.py", old_str="one\ntwo", new_str="1\n2")
    assert not r["isError"] and "     1\t1\n     2\t2\n     3\ttwo\n" in text(r)
    r = mcp(tools, EDIT, command="insert", path="/data/a.py", insert_line=3, insert_text="four")
    assert tools.sandbox.read_file("/data/a.py") == "1\n2\ntwo\nfour"
    mcp(tools, EDIT, command="undo_edit", path="/data/a.py")
    mcp(tools, EDIT, command="undo_edit", path="/data/a.py")
    assert tools.sandbox.read_file("/data/a.py") == "one\ntwo\ntwo\n"
    mcp(tools, EDIT, command="undo_edit", path="/data/a.py")
    assert not tools.sandbox.exists("/data/a.py")
    assert mcp(tools, EDIT, command="undo_edit", path="/data/a.py")["isError"]
    r = mcp(tools, EDIT, command="view", path="/data")
    assert text(r).startswith("Files and directories up to 2 levels deep in /data")


def test_editor_view_range_checked(tools: AgentTools) -> None:
    mcp(tools, "upload", path="/data/b.txt", content="a\nb\n")
    r = mcp(tools, EDIT, command="view", path="/data/b.txt", view_range=[3, 4])
    assert r["isError"] and "has 2 lines" in text(r)


@pytest.mark.parametrize("path", ["/../etc/passwd", "/data/../../x", "data/x", "x"])
def test_paths_outside_root_are_refused(tools: AgentTools, path: str) -> None:
    for name, args in [(EDIT, {"command": "view"}), ("download", {}), ("upload", {"content": "x"})]:
        r = mcp(tools, name, path=path, **args)
        assert r["isError"] and text(r).startswith(f"refused path '{path}'"), (name, r)


def test_upload_download_binary(tools: AgentTools) -> None:
    blob = bytes([0, 255, 1, 2, 10])
    assert text(mcp(tools, "upload", path="/data/x.bin", content=base64.b64encode(blob).decode(), encoding="base64")) == "Wrote 5 bytes to /data/x.bin."
    r = mcp(tools, "download", path="/data/x.bin")
    assert text(r) == "AP8BAgo=" and r["structuredContent"]["encoding"] == "base64"
    mcp(tools, "upload", path="/data/t.txt", content="héllo")
    assert text(mcp(tools, "download", path="/data/t.txt")) == "héllo"
    assert mcp(tools, "download", path="/data/x.bin", encoding="text")["isError"]
    assert mcp(tools, "upload", path="/data/y", content="!!", encoding="base64")["isError"]


# ---- errors --------------------------------------------------------------------------------


def test_unknown_tool_and_bad_arguments(tools: AgentTools) -> None:
    with pytest.raises(ToolCallError, match="Unknown tool: nope"):
        tools.run("nope", {})
    with pytest.raises(ToolCallError, match="'command' must be a string"):
        tools.run("bash", {"command": 5})
    with pytest.raises(ToolCallError, match="unknown argument 'colour'"):
        tools.run("bash", {"command": "true", "colour": 1})
    with pytest.raises(ToolCallError, match="'path' is required"):
        tools.run(EDIT, {"command": "view"})
    r = mcp(tools, "nope")
    assert r == {"content": [{"type": "text", "text": "Unknown tool: nope"}], "isError": True}


def test_python_tool(tools: AgentTools) -> None:
    assert text(mcp(tools, "python", code="x = 20\nprint('hi')\nx * 2")) == "hi\n[value]\n40"
    assert text(mcp(tools, "python", code="x + 1")) == "[value]\n21"
    r = mcp(tools, "python", code="x", context="other")
    assert r["isError"] and "NameError" in text(r)
    with pytest.raises(ToolCallError, match="'code' is required"):
        tools.run("python", {})


def test_python_tool_returns_figures_in_each_format(sandbox: LocalSandbox) -> None:
    plot = "import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()\n'drawn'"
    # The first import of matplotlib builds its font cache: not within a tool's timeout
    # on a loaded machine.
    assert sandbox.execute_python("import matplotlib.pyplot", timeout=600).error is None
    t = sandbox.agent_tools("mcp")
    r = mcp(t, "python", code=plot)
    assert text(r) == "[value]\n'drawn'" and r["content"][1]["mimeType"] == "image/png"
    assert base64.b64decode(r["content"][1]["data"]).startswith(b"\x89PNG")
    a = sandbox.agent_tools("anthropic")
    r = a.dispatch({"type": "tool_use", "id": "p1", "name": "python", "input": {"code": plot}})
    assert r["content"][0] == {"type": "text", "text": "[value]\n'drawn'"}
    src = r["content"][1]["source"]
    assert src["media_type"] == "image/png" and base64.b64decode(src["data"]).startswith(b"\x89PNG")
    o = sandbox.agent_tools("openai")
    call = {"id": "c1", "type": "function", "function": {"name": "python", "arguments": json.dumps({"code": plot})}}
    assert o.dispatch(call)["content"].endswith("[1 figure(s) made; images cannot be shown in this tool result]")
    # Without figures the answers keep their text-only shape.
    r = a.dispatch({"type": "tool_use", "id": "p2", "name": "python", "input": {"code": "1 + 1"}})
    assert r["content"] == "[value]\n2"
