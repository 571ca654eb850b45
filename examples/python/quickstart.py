"""Quickstart: files, bash, Python, the key-value store and the history.

Run from the repository root after `make`:
    PYTHONPATH=build/python /usr/bin/python3 examples/python/quickstart.py
"""

from localsandbox import CommandError, FileNotFoundError, LocalSandbox


def main() -> None:
    with LocalSandbox(files={"/data/notes/todo.txt": "buy milk\nship release\n"}) as sandbox:
        # Files: the same paths for the helpers, bash and Python.
        print(sandbox.read_file("/data/notes/todo.txt"), end="")
        sandbox.write_file("/data/config.json", '{"retries": 3}')
        print("files in /data:", sandbox.list_files("/data"))

        # bash: a persistent session (cd and variables stick between calls).
        result = sandbox.bash("cd notes && wc -l < todo.txt")
        print("lines in todo.txt:", result.stdout.strip())
        print("pwd is still:", sandbox.bash("pwd").stdout.strip())

        # Errors are typed: a missing file is FileNotFoundError with its path.
        try:
            sandbox.bash("cat /data/missing.txt")
        except FileNotFoundError as err:
            print(f"FileNotFoundError: path={err.path} exit_code={err.exit_code}")
        try:
            sandbox.bash("echo partial; exit 3")
        except CommandError as err:
            print(f"CommandError: exit_code={err.exit_code} stdout={err.stdout!r}")

        # Python: the host's CPython in a jail, over the same files.
        py = sandbox.execute_python(
            "import json\nconfig = json.load(open('/data/config.json'))\nconfig['retries'] * 2"
        )
        print("python says:", py.return_value)
        failed = sandbox.execute_python("1 / 0")
        print("python error (returned, not raised):", failed.error)

        # Key-value store and history.
        sandbox.kv.set("user:42:name", "Ada")
        print("kv:", sandbox.kv.keys("user:"), sandbox.kv.get("user:42:name"))
        for entry in sandbox.history(limit=5):
            print(f"  history: {entry.name:<7} {entry.parameters}")


if __name__ == "__main__":
    main()
