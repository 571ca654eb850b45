"""An agent loop: the sandbox as tools for a model API.

``sandbox.agent_tools("anthropic")`` gives the tool definitions (bash, python,
the str_replace_based_edit_tool file editor, upload, download) and a
dispatcher that runs the model's tool_use blocks and returns tool_result
blocks. Failures (a non-zero exit, a missing file, a Python exception) go
back to the model as error results rather than crashing the loop, so the
model can correct itself; long output is cut to its head and tail with the
whole of it saved in the sandbox.

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

from localsandbox import AgentTools, LocalSandbox


class ScriptedModel:
    """Stands in for a model offline: a fixed plan of tool calls, then a
    final answer that quotes what the tools returned."""

    def __init__(self) -> None:
        self.plan: list[tuple[str, dict[str, Any]]] = [
            ("str_replace_based_edit_tool", {"command": "create", "path": "/data/sales.csv",
                                             "file_text": "region,amount\nnorth,120\nsouth,80\nnorth,40\n"}),
            ("bash", {"command": "declare -A total\n"
                      "while IFS=, read -r region amount; do\n"
                      "  [ \"$region\" = region ] && continue\n"
                      "  total[$region]=$(( ${total[$region]:-0} + amount ))\n"
                      "done < sales.csv\n"
                      "for r in \"${!total[@]}\"; do echo \"$r ${total[$r]}\"; done | sort"}),
            ("bash", {"command": "cat /data/missing.csv"}),  # an error the model sees and survives
        ]
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
        results = [m["content"][0]["content"] for m in messages if m["role"] == "user" and m is not messages[0]]
        # the lines of the bash and python results, without the exit-status and value tags
        lines = [line for r in results[1:2] + results[3:] for line in r.splitlines() if not line.startswith("[")]
        summary = ", ".join(lines)
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


def agent(task: str, model: Any, tools: AgentTools, max_turns: int = 20) -> str:
    """Runs the loop until the model answers without a tool call."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": task}]
    for _ in range(max_turns):
        response = model(messages, tools.definitions)
        messages.append({"role": "assistant", "content": response["content"]})
        calls = [b for b in response["content"] if b["type"] == "tool_use"]
        if not calls:
            return "".join(b.get("text", "") for b in response["content"] if b["type"] == "text")
        results = []
        for call in calls:
            result = tools.dispatch(call)
            print(f"[tool] {call['name']}({json.dumps(call['input'])[:70]}) -> {'error' if result['is_error'] else 'ok'}")
            results.append(result)
        messages.append({"role": "user", "content": results})
    return "(stopped after max_turns)"


def main() -> None:
    model = anthropic_model if os.environ.get("ANTHROPIC_API_KEY") else ScriptedModel()
    with LocalSandbox() as sandbox:
        tools = sandbox.agent_tools("anthropic", timeout=30)
        answer = agent("Summarize the sales by region, and the north total.", model, tools)
        print(answer)
        print("sandbox history:", [e.name for e in sandbox.history()])


if __name__ == "__main__":
    main()
