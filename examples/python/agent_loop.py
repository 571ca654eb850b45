"""An agent loop: the sandbox as tools for a model API.

The model gets four tools: bash, read_file, write_file and python. Each of
its tool calls runs in the sandbox; failures (a non-zero exit, a missing
file, a Python exception) go back to the model as error results rather than
crashing the loop, so the model can correct itself.

With ANTHROPIC_API_KEY set the loop talks to the Anthropic Messages API
(plain urllib, no SDK needed; MODEL overrides the model name). Without it, a
scripted model replays a fixed plan, so the example runs offline:

    PYTHONPATH=build/python /usr/bin/python3 examples/python/agent_loop.py
"""

from __future__ import annotations

import json
import os
import urllib.request
from typing import Any

from localsandbox import (
    CommandError,
    ExecutionLimitError,
    LocalSandbox,
    LocalSandboxError,
    TimeoutError,
    _sbx,
)

TOOLS: list[dict[str, Any]] = [
    {
        "name": "bash",
        "description": "Run a bash script in the sandbox (state persists between calls; cwd /data).",
        "input_schema": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a text file of the sandbox.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    },
    {
        "name": "write_file",
        "description": "Write a text file in the sandbox (parent directories are created).",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
]
if _sbx.HAVE_PYTHON:
    TOOLS.append(
        {
            "name": "python",
            "description": "Run Python 3 in the sandbox (numpy/pandas if installed); "
            "the value of a trailing expression is returned.",
            "input_schema": {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]},
        }
    )


def run_tool(sandbox: LocalSandbox, name: str, args: dict[str, Any]) -> tuple[str, bool]:
    """Runs one tool call; returns (text for the model, is_error)."""
    try:
        if name == "bash":
            r = sandbox.bash(args["command"], timeout=30)
            return r.stdout + r.stderr, False
        if name == "read_file":
            return sandbox.read_file(args["path"]), False
        if name == "write_file":
            sandbox.write_file(args["path"], args["content"])
            return f"wrote {len(args['content'])} characters to {args['path']}", False
        if name == "python":
            p = sandbox.execute_python(args["code"], timeout=30)
            text = p.stdout + p.stderr + (f"\n=> {p.return_value}" if p.return_value else "")
            return text, p.error is not None
        return f"unknown tool {name}", True
    except CommandError as e:  # includes FileNotFoundError and PermissionError
        return f"exit code {e.exit_code}\n{e.stdout}{e.stderr}", True
    except (ExecutionLimitError, TimeoutError, LocalSandboxError, KeyError, TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}", True


class ScriptedModel:
    """Stands in for a model offline: a fixed plan of tool calls, then a
    final answer that quotes what the tools returned."""

    def __init__(self) -> None:
        self.plan: list[tuple[str, dict[str, Any]]] = [
            ("write_file", {"path": "/data/sales.csv", "content": "region,amount\nnorth,120\nsouth,80\nnorth,40\n"}),
            ("bash", {"command": "declare -A total\n"
                      "while IFS=, read -r region amount; do\n"
                      "  [ \"$region\" = region ] && continue\n"
                      "  total[$region]=$(( ${total[$region]:-0} + amount ))\n"
                      "done < sales.csv\n"
                      "for r in \"${!total[@]}\"; do echo \"$r ${total[$r]}\"; done | sort"}),
            ("bash", {"command": "cat /data/missing.csv"}),  # an error the model sees and survives
        ]
        if _sbx.HAVE_PYTHON:
            self.plan.append(
                ("python", {"code": "import csv\nrows = list(csv.DictReader(open('sales.csv')))\n"
                            "sum(int(r['amount']) for r in rows if r['region'] == 'north')"})
            )
        self.step = 0

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        if self.step < len(self.plan):
            name, args = self.plan[self.step]
            self.step += 1
            return {
                "stop_reason": "tool_use",
                "content": [{"type": "tool_use", "id": f"call_{self.step}", "name": name, "input": args}],
            }
        results = [m["content"][0]["content"].strip() for m in messages if m["role"] == "user" and m is not messages[0]]
        summary = "; ".join(r.replace("\n", ", ") for r in results[1:2] + results[3:])
        return {"stop_reason": "end_turn", "content": [{"type": "text", "text": f"Totals by region: {summary}"}]}


def anthropic_model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
    """One call to the Anthropic Messages API."""
    body = json.dumps(
        {
            "model": os.environ.get("MODEL", "claude-sonnet-4-5"),
            "max_tokens": 2048,
            "system": "You are a data assistant with a sandbox. Use the tools; files live in /data.",
            "tools": tools,
            "messages": messages,
        }
    ).encode()
    req = urllib.request.Request(
        "https://api.anthropic.com/v1/messages",
        data=body,
        headers={
            "x-api-key": os.environ["ANTHROPIC_API_KEY"],
            "anthropic-version": "2023-06-01",
            "content-type": "application/json",
        },
    )
    with urllib.request.urlopen(req, timeout=120) as resp:
        return json.load(resp)  # type: ignore[no-any-return]


def agent(task: str, model: Any, sandbox: LocalSandbox, max_turns: int = 20) -> str:
    """Runs the loop until the model answers without a tool call."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    for _ in range(max_turns):
        response = model(messages, TOOLS)
        messages.append({"role": "assistant", "content": response["content"]})
        calls = [b for b in response["content"] if b["type"] == "tool_use"]
        if not calls:
            return "".join(b.get("text", "") for b in response["content"] if b["type"] == "text")
        results = []
        for call in calls:
            text, is_error = run_tool(sandbox, call["name"], call["input"])
            print(f"[tool] {call['name']}({json.dumps(call['input'])[:70]}) -> {'error' if is_error else 'ok'}")
            results.append({"type": "tool_result", "tool_use_id": call["id"], "content": text, "is_error": is_error})
        messages.append({"role": "user", "content": results})
    return "(stopped after max_turns)"


def main() -> None:
    model = anthropic_model if os.environ.get("ANTHROPIC_API_KEY") else ScriptedModel()
    with LocalSandbox() as sandbox:
        answer = agent("Summarize the sales by region, and the north total.", model, sandbox)
        print(answer)
        print("sandbox history:", [e.name for e in sandbox.history()])


if __name__ == "__main__":
    main()
