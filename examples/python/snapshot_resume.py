"""Snapshot and resume, forks, and a sandbox kept in a named file.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/snapshot_resume.py
"""

import os
import tempfile

from localsandbox import LocalSandbox


def main() -> None:
    # Session 1: do some work, export the whole sandbox as bytes.
    with LocalSandbox() as sandbox:
        sandbox.bash('echo "session one" > /data/notes.txt')
        sandbox.kv.set("session_id", "alpha")
        snapshot = sandbox.export_snapshot()
    print(f"snapshot: {len(snapshot)} bytes (an AgentFS SQLite database)")

    # Session 2: resume from the bytes (store them anywhere: a blob store, a DB).
    with LocalSandbox(snapshot=snapshot) as resumed:
        print("resumed file:", resumed.read_file("/data/notes.txt").strip())
        print("resumed kv:", resumed.kv.get("session_id"))

        # Fork: try something risky in a copy, keep the original intact.
        with resumed.fork() as trial:
            trial.bash("rm /data/notes.txt")
            print("in the fork, notes exist:", trial.exists("/data/notes.txt"))
        print("in the original, notes exist:", resumed.exists("/data/notes.txt"))

    # A sandbox that lives in a file and is reopened later (another process,
    # another day): path= instead of snapshot bytes.
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "agent.db")
        with LocalSandbox(path=db) as first:
            first.bash("mkdir -p /data/work && echo draft > /data/work/plan.md")
        with LocalSandbox(path=db) as again:
            print("reopened from", os.path.basename(db), "->", again.read_file("/data/work/plan.md").strip())
            print("its history:", [(e.name, e.parameters) for e in again.history()])


if __name__ == "__main__":
    main()
