#!/usr/bin/env python3
"""gen-seccomp.py - writes deploy/seccomp-sbx.json: the default seccomp profile
of Debian 12's container engines (/usr/share/containers/seccomp.json from
golang-github-containers-common, the profile Podman and CRI-O apply by default)
with one rule added that lets an unprivileged process build sbx's full Python
jail: user/mount/pid/net/ipc/uts/cgroup namespaces (unshare, clone with
CLONE_NEW* flags), the mounts of its root file system (mount, umount2,
pivot_root and the new mount API for the root-made FUSE mount) and its
hostname and domain name. Nothing else changes: the calls the default denies stay denied.

Docker's default profile denies the namespace flags of clone and unshare
unless the container has CAP_SYS_ADMIN; this profile allows them without any
capability, which is what the jail needs (it creates a user namespace and
drops every capability inside it). Use it for docker, podman and Kubernetes
alike (docs/deploy.md).

usage: deploy/gen-seccomp.py [DEFAULT_PROFILE] > deploy/seccomp-sbx.json
"""
import json
import sys

JAIL_CALLS = [
    "unshare", "clone", "clone3", "mount", "umount2", "pivot_root", "sethostname", "setdomainname",
    "fsopen", "fsconfig", "fsmount", "move_mount", "open_tree", "mount_setattr",
]


def main() -> int:
    src = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/containers/seccomp.json"
    with open(src) as f:
        profile = json.load(f)
    # Drop the rules that deny one of the jail's calls to a container without
    # CAP_SYS_ADMIN; the allow rule below covers them unconditionally.
    kept = []
    for rule in profile["syscalls"]:
        names = [n for n in rule["names"] if not (
            n in JAIL_CALLS and rule.get("action") != "SCMP_ACT_ALLOW")]
        if names:
            rule = dict(rule, names=names)
            kept.append(rule)
    kept.append({
        "names": JAIL_CALLS,
        "action": "SCMP_ACT_ALLOW",
        "args": [],
        "comment": "sbx: the full Python jail (user namespace, its mounts and hostname)",
        "includes": {},
        "excludes": {},
    })
    profile["syscalls"] = kept
    json.dump(profile, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
