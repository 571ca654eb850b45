"""The examples of the published localsandbox README that run Python, as
written there (collected when the Python worker is built)."""

from __future__ import annotations

from localsandbox import LocalSandbox, PythonToolset, ToolDefinition


def test_seeded_script_example() -> None:
    # Seed initial files (all paths use /data prefix)
    with LocalSandbox(files={"/data/app/main.py": 'print("hello")'}) as sandbox:
        result = sandbox.execute_python('exec(open("main.py").read())', cwd="/data/app")
        assert result.stdout == "hello\n"


def test_toolset_example() -> None:
    def web_search(payload):  # type: ignore[no-untyped-def]
        return {"results": ["result1", "result2"]}

    toolset = PythonToolset(
        definitions=[
            ToolDefinition(
                name="web_search",
                description="Search the web for information.",
                input_schema={
                    "type": "object",
                    "properties": {"query": {"type": "string"}},
                    "required": ["query"],
                },
            )
        ],
        handlers={"web_search": web_search},
    )

    with LocalSandbox() as sandbox:
        result = sandbox.execute_python(
            """
from host_tools import call, search

print(search("web"))
response = call("web_search", {"query": "hello"})
print(response["results"])
""",
            toolset=toolset,
        )
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "web_search" in lines[0]
    assert lines[1] == "['result1', 'result2']"


def test_kv_and_history_example() -> None:
    with LocalSandbox() as sandbox:
        sandbox.kv.set("user:42:name", "Ada")
        sandbox.bash('echo "first"')
        sandbox.execute_python('print("second")')
        names = [entry.name for entry in sandbox.history(limit=5)]
    assert names == ["python", "bash"]
