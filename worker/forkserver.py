# forkserver.py - Z, the jail's fork server: starts the shell's `python3` and
# host programs (git, make, gcc, ...) for the host (src/py/py_spawn.c).
#
# sbx-pyworker carries this file (.incbin, worker/main.c) and J1's second
# child runs it with `python3.11 -c LOADER SOURCE` (compiled as
# "<sbx-forkserver>", so tracebacks can leave its frames out) with every
# restriction of the jail
# already in place (jail_helper.c). It imports what a `python3 -c` needs, then
# serves the spawn socket (fd 3, SEQPACKET) one request per datagram:
#
#   data = PATH \0 CWD \0 NARGS \0 ARG... \0 ENV...      ("K=V" entries)
#   fds  = [reply, stdin, stdout, stderr, tools]          (SCM_RIGHTS)
#
# For each request it forks a child C in a process group of its own. C puts
# the fds on 0, 1 and 2, takes the call's environment and directory, and
# either execs PATH or, when PATH is this interpreter (directly or through a
# `#!` line) and the options allow it, runs the script itself: a pre-imported
# interpreter forked per call, so `python3 -c pass` costs a fork instead of a
# start. C is a fresh interpreter for the script: the server never imports
# user code, the modules the server added are dropped from sys.modules,
# sys.path, os.environ, stdio and __main__ are rebuilt, and the script ends
# the way `python3` ends (SystemExit up through the stack, then atexit,
# finally blocks, thread joins and stdio flush in the interpreter's own exit).
# Options or PYTHON* variables it cannot honour that way (-I, -X, -O, -W,
# PYTHONHASHSEED...) make C exec the real interpreter instead. Differences
# left: sys.flags is the server's (default options), the str hash seed is
# shared by all children, and no bytecode is written (see _fresh_state).
#
# Replies on the call's reply socket: "E errno" (from C, exec failed) and
# "X status" (the raw wait status, from Z once C is reaped). When the host
# sends "K" or closes the reply socket (timeout, cancel) or C ends, Z kills
# C's whole process group. When the host closes the spawn socket, Z
# kills every group and exits. The tools socket carries the `host_tools`
# calls of a script run in place (one JSON line each way: ["call", NAME,
# PAYLOAD] or ["search", QUERY, DETAIL, LIMIT] -> [0, RESULT] or [1, "[kind]
# message"]); exec'd programs do not get it.
import os
import signal
import sys

_BASE_MODULES = set(sys.modules)   # what a `python3 -c` has loaded at start
import _socket  # noqa: E402
import array  # noqa: E402
import io  # noqa: E402
import select  # noqa: E402
import runpy  # noqa: E402,F401  (warm for -m; dropped from sys.modules in C)
import ctypes  # noqa: E402

# Z is not dumpable: user code of the jail runs as the same uid, and a
# dumpable Z's /proc/PID/mem would be writable to it. Its children turn it
# back on (exec does it for programs), as any process of the user has it.
_prctl = ctypes.CDLL(None, use_errno=True).prctl
_PR_SET_DUMPABLE = 4
_prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)

_EXE = os.path.realpath(sys.executable)
_BASE_PATH = list(sys.path[1:])    # without '' (the server's -c)
_ENCODING = sys.stdout.encoding
_ERRORS = sys.stdout.errors
_CTYPE = os.environ.get("LC_CTYPE") or os.environ.get("LANG")  # the server's: C.UTF-8
_ORIG_STDIO = (sys.stdin, sys.stdout, sys.stderr)   # kept alive: they own fds 0-2
_FAST_ENV = {"PYTHONPATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"}
_MAX_REQUEST = 256 * 1024


def _send(sock, text):
    try:
        sock.send(text.encode())
    except OSError:
        pass


def _python_argv(path, args):
    """The interpreter's argv when PATH runs this interpreter, else None."""
    try:
        if os.path.realpath(path) == _EXE:
            return [path] + args[1:]
        with open(path, "rb") as f:
            line = f.readline(256)
    except OSError:
        return None
    if not line.startswith(b"#!"):
        return None
    parts = line[2:].decode("utf-8", "replace").split(None, 1)
    if not parts:
        return None
    interp, extra = parts[0], parts[1].strip() if len(parts) > 1 else None
    if os.path.basename(interp) == "env" and extra and " " not in extra:
        found = None
        for d in os.environ.get("PATH", "/usr/bin:/bin").split(":"):
            cand = os.path.join(d or ".", extra)
            if os.access(cand, os.X_OK):
                found = cand
                break
        if not found or os.path.realpath(found) != _EXE:
            return None
        return [found, path] + args[1:]
    try:
        if os.path.realpath(interp) != _EXE:
            return None
    except OSError:
        return None
    return [interp] + ([extra] if extra else []) + [path] + args[1:]


def _ctype(env):
    return env.get("LC_CTYPE") or env.get("LANG")


def _parse(argv, env):
    """(mode, value, rest, unbuffered) for the fast path, or None."""
    for k in env:
        if k.startswith("PYTHON") and k not in _FAST_ENV:
            return None
    # The character type locale decides stdio's encoding. The server's is
    # C.UTF-8; the C locale (or none) is coerced to it by python3 itself,
    # which then sets LC_CTYPE in os.environ (PEP 538); LC_ALL turns the
    # coercion off. Anything else: the real interpreter.
    if env.get("LC_ALL"):
        if env["LC_ALL"] != _CTYPE:
            return None
    elif _ctype(env) not in (None, "", "C", "POSIX", _CTYPE):
        return None
    unbuffered = bool(env.get("PYTHONUNBUFFERED"))
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--":
            i += 1
            break
        if not a.startswith("-") or a == "-":
            break
        for j in range(1, len(a)):
            c = a[j]
            if c in "cm":
                val = a[j + 1:] or (argv[i + 1] if i + 1 < len(argv) else None)
                if val is None:
                    return None
                rest = argv[i + (1 if a[j + 1:] else 2):]
                return ("c" if c == "c" else "m", val, rest, unbuffered)
            if c != "u":
                return None
            unbuffered = True
        i += 1
    if i < len(argv) and argv[i] != "-":
        return ("file", argv[i], argv[i + 1:], unbuffered)
    return ("stdin", argv[i] if i < len(argv) else "", argv[i + 1:], unbuffered)


def _stdio(unbuffered):
    def out(fd, errors, line):
        raw = io.FileIO(fd, "wb", closefd=False)
        if unbuffered:
            return io.TextIOWrapper(raw, _ENCODING, errors, write_through=True)
        return io.TextIOWrapper(io.BufferedWriter(raw), _ENCODING, errors, line_buffering=line)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "rb", closefd=False)), _ENCODING, _ERRORS)
    sys.stdout = sys.__stdout__ = out(1, _ERRORS, False)
    sys.stderr = sys.__stderr__ = out(2, "backslashreplace", True)


def _fresh_state(path0, env, exe, argv):
    import site
    for name in list(sys.modules):
        if name not in _BASE_MODULES:
            del sys.modules[name]
    sys.executable = exe
    sys.orig_argv = list(argv)
    # No __pycache__ in the store: a .pyc is trusted when the source's mtime
    # (whole seconds) and size match, so a same-size fix made within the
    # second of the last run (`sed -i s/1/2/`) would run the old code.
    sys.dont_write_bytecode = True
    extra = [p for p in env.get("PYTHONPATH", "").split(":") if p]
    base = list(_BASE_PATH)
    user = None
    if site.ENABLE_USER_SITE:
        site.USER_BASE = site.USER_SITE = None
        user = site.getusersitepackages()
        if user in base or not os.path.isdir(user):
            user = None
    sys.path[:] = [path0] + [os.path.abspath(p) for p in extra] + base
    if user:
        at = next((i for i, p in enumerate(sys.path) if p.endswith(("-packages",))), len(sys.path))
        site.addsitedir(user)
        sys.path.remove(user)
        sys.path.insert(at, user)
    sys.path_importer_cache.clear()
    import importlib
    importlib.invalidate_caches()


def _new_main(filename):
    import builtins
    main = type(sys)("__main__")
    main.__builtins__ = builtins
    main.__annotations__ = {}
    if filename is not None:
        main.__file__ = filename
        main.__cached__ = None
    sys.modules["__main__"] = main
    return main.__dict__


def _report(exc):
    tb = exc.__traceback__
    # Our own frames (the runner) are not the script's.
    while tb is not None and tb.tb_frame.f_code.co_filename == "<sbx-forkserver>":
        tb = tb.tb_next
    sys.excepthook(type(exc), exc.with_traceback(tb), tb)


def _host_tools(fd):
    """The host_tools module of a script run in place: the same call() and
    search() as in execute_python, over the call's tools socket."""
    sock = _socket.socket(fileno=fd)
    buf = bytearray()

    def ask(request):
        import json
        sock.sendall(json.dumps(request).encode() + b"\n")
        while b"\n" not in buf:
            chunk = sock.recv(65536)
            if not chunk:
                raise RuntimeError("[internal_error] the host closed the tool channel")
            buf.extend(chunk)
        line, _, rest = bytes(buf).partition(b"\n")
        buf[:] = rest
        status, body = json.loads(line)
        if status != 0:
            raise RuntimeError(body)
        return json.loads(body)

    def call(name, payload=None):
        """Calls the host tool `name` with a JSON-serializable payload; returns its result."""
        import json
        if not isinstance(name, str):
            raise TypeError("tool name must be a str")
        return ask(["call", name, json.dumps({} if payload is None else payload)])

    def search(query, detail="brief", limit=10):
        """Ranks the declared host tools for `query` (BM25); returns a list of dicts."""
        if detail not in ("brief", "full"):
            raise ValueError("detail must be 'brief' or 'full'")
        return ask(["search", str(query), detail, int(limit)])

    mod = type(sys)("host_tools")
    mod.__doc__ = "Call the host's tools: call(name, payload), search(query)."
    mod.call, mod.search = call, search
    return mod


def _run_python(pyargv, env, tools):
    """Runs the script in this (forked) process; returns its exit code, or
    None when the real interpreter must be exec'd."""
    parsed = _parse(pyargv, env)
    if parsed is None:
        return None
    mode, value, rest, unbuffered = parsed
    if not env.get("LC_ALL") and _ctype(env) in (None, "", "C", "POSIX"):
        os.environ["LC_CTYPE"] = _CTYPE  # python3's locale coercion
    exe = pyargv[0] if "/" in pyargv[0] else sys.executable
    src = filename = None
    if mode == "file":
        if os.path.isdir(value) or value.endswith(".zip") or value.endswith(".pyz"):
            return None
        try:
            with open(value, "rb") as f:
                src = f.read()
        except OSError as e:
            os.write(2, ("%s: can't open file %r: [Errno %d] %s\n" % (
                exe, os.path.abspath(value), e.errno, e.strerror)).encode())
            return 2
        filename = os.path.abspath(value)
        path0 = os.path.dirname(os.path.realpath(value))
        argv0 = value
    elif mode == "c":
        path0, argv0 = "", "-c"
    elif mode == "m":
        path0, argv0 = os.getcwd(), "-m"
    else:
        path0, argv0 = "", value
    _fresh_state(path0, env, exe, pyargv)
    sys.modules["host_tools"] = _host_tools(tools)
    _stdio(unbuffered)
    sys.argv = [argv0] + list(rest)
    try:
        if mode == "m":
            import runpy
            runpy._run_module_as_main(value)
        else:
            if mode == "stdin":
                src, filename = sys.stdin.buffer.read(), "<stdin>"
            code = compile(src if mode != "c" else value,
                           filename if mode != "c" else "<string>", "exec")
            g = _new_main(None if mode == "c" or mode == "stdin" else filename)
            exec(code, g)
    except SystemExit:
        raise
    except KeyboardInterrupt as e:
        _report(e)
        return 130
    except BaseException as e:
        _report(e)
        return 1
    return 0


def _child(path, cwd, args, env, fds):
    reply, stdin, stdout, stderr, tools = fds
    signal.set_wakeup_fd(-1)
    _prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0)
    for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(fd, target)
    # Everything else closes but the reply and tools sockets (fds >= 3: 0-2
    # were taken when they arrived).
    lo, hi = sorted((reply, tools))
    os.closerange(3, lo)
    os.closerange(lo + 1, hi)
    os.closerange(hi + 1, 65536)
    os.set_inheritable(reply, False)
    os.set_inheritable(tools, False)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.environ.clear()
    os.environ.update(env)
    try:
        os.chdir(cwd)
    except OSError:
        pass
    pyargv = _python_argv(path, args)
    if pyargv is not None:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        code = _run_python(pyargv, env, tools)
        if code is not None:
            raise SystemExit(code)  # the interpreter's exit flushes stdio
        path, args = _EXE, pyargv
    # A program gets the signal dispositions a shell gives it.
    for s in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)
    try:
        os.execve(path, args, env)
    except OSError as e:
        os.write(reply, b"E %d" % e.errno)
    os._exit(127)


def serve():
    sock = _socket.socket(fileno=3)
    os.chdir("/")
    rd, wr = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wr)
    signal.signal(signal.SIGCHLD, lambda *a: None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    poller = select.poll()
    poller.register(3, select.POLLIN)
    poller.register(rd, select.POLLIN)
    calls = {}    # pid -> reply fd
    by_fd = {}    # reply fd -> pid
    import gc
    gc.freeze()
    while True:
        try:
            events = poller.poll()
        except InterruptedError:
            continue
        for fd, ev in events:
            if fd == 3:
                try:
                    data, anc, flags, addr = sock.recvmsg(_MAX_REQUEST, _socket.CMSG_SPACE(5 * 4))
                except OSError:
                    continue
                fds = array.array("i")
                for level, kind, cdata in anc:
                    if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
                        fds.frombytes(cdata[:len(cdata) - len(cdata) % fds.itemsize])
                if not data and not fds:
                    for pid in calls:
                        try:
                            os.killpg(pid, signal.SIGKILL)
                        except OSError:
                            pass
                    os._exit(0)
                fields = data.split(b"\0")
                if len(fds) != 5 or len(fields) < 3 or not fields[2].isdigit():
                    for f in fds:
                        os.close(f)
                    continue
                nargs = int(fields[2])
                path = fields[0]
                cwd = fields[1]
                args = [os.fsdecode(a) for a in fields[3:3 + nargs]]
                env = {}
                for e in fields[3 + nargs:]:
                    k, sep, v = e.partition(b"=")
                    if sep and k:
                        env[os.fsdecode(k)] = os.fsdecode(v)
                pid = os.fork()
                if pid == 0:
                    poller = None
                    _child(os.fsdecode(path), os.fsdecode(cwd), args, env, list(fds))
                try:
                    os.setpgid(pid, pid)
                except OSError:
                    pass
                for f in fds[1:]:
                    os.close(f)
                calls[pid] = fds[0]
                by_fd[fds[0]] = pid
                poller.register(fds[0], select.POLLIN)
            elif fd == rd:
                try:
                    os.read(rd, 512)
                except OSError:
                    pass
                while calls:
                    try:
                        pid, status = os.waitpid(-1, os.WNOHANG)
                    except ChildProcessError:
                        break
                    if pid == 0:
                        break
                    rfd = calls.pop(pid, None)
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass
                    if rfd is not None:
                        try:
                            os.write(rfd, b"X %d" % status)
                        except OSError:
                            pass
                        if by_fd.pop(rfd, None) is not None:
                            try:
                                poller.unregister(rfd)
                            except KeyError:
                                pass
                        os.close(rfd)
            elif fd in by_fd:
                # "K" or the host hung up (timeout, cancel): the call's tree
                # dies; the reaping above answers "X" if the host still waits.
                pid = by_fd[fd]
                try:
                    os.killpg(pid, signal.SIGKILL)
                except OSError:
                    pass
                try:
                    msg = os.read(fd, 16)
                except OSError:
                    msg = b""
                if not msg:
                    poller.unregister(fd)  # closed: reaped (and closed) later


serve()
