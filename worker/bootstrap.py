# bootstrap.py - the Python half of sbx-pyworker, embedded in the binary
# (worker/pyworker.c includes it with .incbin) and run once at start-up as
# the module `_sbx`. The C half owns the protocol; this file owns what a call
# means: named contexts, the trailing-expression repr, protected names,
# preloads, scripts, stdio, and the `host_tools` module seen by sandboxed code.
#
# Every entry point returns plain tuples of str/int so the C side never has to
# interpret Python objects beyond that:
#   run(...)      -> (status, errkind, errtype, message, traceback, repr, exit
#                     [, images: list of PNG bytes])
#   ctx_*(...)    -> (status, errkind, message)
# status 0 = ok, 1 = error. errkind: syntax, exception, interrupt, memory, cpu,
# exit, protected, context, preload, cwd, value.
# Start-up cost matters (it is part of the first call): only modules that are
# already loaded or built in are imported here; ast, copy, json, keyword,
# linecache, os and traceback are imported where they are first needed.
import _ast
import _signal
import builtins
import io
import posix
import sys

import _sbxw

_BOOT = "<sbx-worker>"
_MAX_REPR = 1 << 20
_MAX_TB = 256 * 1024


class _State:
    running = False   # user code is executing: SIGINT raises KeyboardInterrupt
    cell = 0          # counter for cell file names
    images = None     # PNG bytes of the running cell's figures (a list), or None
    dropped = 0       # figures past the limits below, in this cell
    cwd = None        # the directory the last EXEC changed to (None: unknown)


_MAX_IMAGES = 32               # figures returned per call
_MAX_IMAGE_BYTES = 8 << 20     # their bytes together (a result frame is 16 MiB)


_state = _State()
_contexts = {}        # name -> globals dict
_protected = {}       # name -> set of protected variable names
_cache = {}           # (source, filename, want_repr) -> (body, expr, tree)
_sources = {}         # cell file name -> source, for tracebacks (bounded)


class CPULimitExceeded(BaseException):
    """Raised in the sandboxed code when its CPU-time limit is reached."""


def _on_sigint(signum, frame):
    # Only user code is interrupted; a late signal between calls is dropped.
    if _state.running:
        raise KeyboardInterrupt


def _on_sigxcpu(signum, frame):
    if _state.running:
        raise CPULimitExceeded("CPU time limit exceeded")


_signal.signal(_signal.SIGINT, _on_sigint)
_signal.signal(_signal.SIGXCPU, _on_sigxcpu)


def _isdir(p):
    try:
        return (posix.stat(p).st_mode & 0o170000) == 0o040000
    except OSError:
        return False


def _env(name):
    v = posix.environ.get(name.encode())
    return v.decode("utf-8", "surrogateescape") if v else ""


# sys.path as python3 builds it (site.py is not run: the config is isolated):
# $PYTHONPATH first (the host directories the sandbox exposes), then the
# user site (where `pip install` puts packages: PYTHONUSERBASE is under /data),
# then Debian's dist-packages. The first two may not exist yet: _refresh_paths
# lets a later call see them once they do.
_refresh = [p for p in _env("PYTHONPATH").split(":") if p.startswith("/")]
_refresh.append("%s/lib/python%d.%d/site-packages" % (
    _env("PYTHONUSERBASE") or _env("HOME") + "/.local", sys.version_info[0], sys.version_info[1]))
sys.path[0:0] = [p for p in _refresh[:-1] if p not in sys.path]
if _refresh[-1] not in sys.path:
    sys.path.append(_refresh[-1])
for _p in ("/usr/local/lib/python3.11/dist-packages", "/usr/lib/python3/dist-packages",
           "/usr/lib/python3.11/dist-packages"):
    if _p not in sys.path and _isdir(_p):
        sys.path.append(_p)


def _refresh_paths():
    # An entry that did not exist when first looked at is cached as None
    # (no finder) forever; drop that, so a package installed since is seen.
    cache = sys.path_importer_cache
    for p in _refresh:
        if p in cache and cache[p] is None:
            del cache[p]

# ---- matplotlib: figures come back with the result ----------------------------
#
# When user code first imports matplotlib, it gets the backend below (unless
# MPLBACKEND names another one than the jail's default Agg): Agg's canvas,
# whose show() hands the open figures to the result of the running cell and
# closes them, as Jupyter's inline backend does. Figures still open when a
# cell ends come back the same way. Nothing is imported before matplotlib is.

def _capture_figures(managers=None):
    """PNG bytes of the open pyplot figures (or of `managers`') into the
    running cell's result, then closes them."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None or _state.images is None:
        return
    import io as _io
    from matplotlib._pylab_helpers import Gcf
    if managers is None:
        managers = Gcf.get_all_fig_managers()
    try:
        for manager in managers:
            if len(_state.images) >= _MAX_IMAGES:
                _state.dropped += 1
                continue
            buf = _io.BytesIO()
            manager.canvas.figure.savefig(buf, format="png")
            data = buf.getvalue()
            if sum(map(len, _state.images)) + len(data) > _MAX_IMAGE_BYTES:
                _state.dropped += 1
                continue
            _state.images.append(data)
    finally:
        for manager in managers:
            plt.close(manager.canvas.figure)


def _inline_show(*args, **kwargs):
    """plt.show(): the figures go to the result (in a cell; elsewhere it
    does what Agg's show does: nothing)."""
    if _state.images is not None:
        _capture_figures()


class _MplHook:
    """sys.meta_path entry: the `_sbx_inline` backend module, and the switch
    to it once matplotlib itself has been executed."""
    BACKEND = "module://_sbx_inline"

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name == "_sbx_inline":
            import importlib.machinery
            return importlib.machinery.ModuleSpec(name, cls)
        if name != "matplotlib":
            return None
        import importlib.util
        sys.meta_path.remove(cls)  # the real finder runs without us
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, cls)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        real_exec = spec.loader.exec_module

        def exec_module(module):
            real_exec(module)
            import os
            if os.environ.get("MPLBACKEND", "Agg").lower() == "agg":
                module.use(cls.BACKEND)

        spec.loader.exec_module = exec_module
        return spec

    @staticmethod
    def create_module(spec):
        return None

    @staticmethod
    def exec_module(module):
        from matplotlib.backend_bases import FigureManagerBase
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        class FigureManager(FigureManagerBase):
            def show(self):  # fig.show(): this one figure, as plt.show() does all
                if _state.images is not None:
                    _capture_figures([self])

        class FigureCanvas(FigureCanvasAgg):
            manager_class = FigureManager

        module.FigureCanvas = FigureCanvas
        module.FigureManager = FigureManager
        module.show = _inline_show


sys.meta_path.insert(0, _MplHook)


def _new_streams():
    global _stdout, _stderr, _stdin
    _stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8",
                               errors="backslashreplace", newline="\n")
    _stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                               errors="backslashreplace", newline="\n", line_buffering=True)
    _stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8",
                              errors="surrogateescape")


_new_streams()


class _HostStdin(io.RawIOBase):
    """stdin of a `python3` command in the shell: read from the host on demand."""

    def readable(self):
        return True

    def readinto(self, b):
        data = _sbxw.stdin_read(len(b))
        n = len(data)
        b[:n] = data
        return n


def _std_streams(host_stdin=False):
    if _stdout.closed or _stderr.closed or _stdin.closed:
        _new_streams()  # code closed them (json.tool does): fd 0-2 stay open
    sys.stdout, sys.stderr = _stdout, _stderr
    sys.__stdout__, sys.__stderr__ = _stdout, _stderr
    if host_stdin:
        sys.stdin = io.TextIOWrapper(io.BufferedReader(_HostStdin()), encoding="utf-8",
                                     errors="surrogateescape")
    else:
        sys.stdin = _stdin
    sys.__stdin__ = sys.stdin


def _flush():
    for s in (_stdout, _stderr, sys.stdout, sys.stderr):
        try:
            s.flush()
        except BaseException:
            pass


_std_streams()


# The builtins that site.py adds to a normal interpreter (exit, quit, help,
# copyright, credits, license); _sitebuiltins is frozen, so this costs nothing.
def _site_builtins():
    import _sitebuiltins
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()
    builtins.copyright = _sitebuiltins._Printer("copyright", sys.copyright)
    builtins.credits = _sitebuiltins._Printer(
        "credits", "    Thanks to CWI, CNRI, BeOpen.com, Zope Corporation and a cast of thousands\n"
        "    for supporting Python development.  See www.python.org for more information.")
    builtins.license = _sitebuiltins._Printer(
        "license", "See https://www.python.org/psf/license/")


_site_builtins()


# ---- host_tools: what sandboxed code imports -------------------------------------

_host_tools = type(sys)("host_tools")
_host_tools.__doc__ = "Call the host's tools: call(name, payload), search(query)."


def _tool_call(name, payload=None):
    """Calls the host tool `name` with a JSON-serializable payload; returns its result."""
    import json
    if not isinstance(name, str):
        raise TypeError("tool name must be a str")
    text = json.dumps({} if payload is None else payload)
    status, body, kind = _sbxw.tool_call(name, text)
    if status != 0:
        raise RuntimeError("[%s] %s" % (kind, body))
    return json.loads(body)


def _tool_search(query, detail="brief", limit=10):
    """Ranks the declared host tools for `query` (BM25); returns a list of dicts."""
    import json
    if detail not in ("brief", "full"):
        raise ValueError("detail must be 'brief' or 'full'")
    status, body, kind = _sbxw.tool_search(str(query), detail, int(limit))
    if status != 0:
        raise RuntimeError("[%s] %s" % (kind, body))
    return json.loads(body)


# Typed stubs: `from host_tools import get_weather` gives a function whose
# signature, annotations and docstring come from the declared tool (its input
# schema's properties as parameters, the required ones first, the others
# with the schema's default or None, sent only when given; its output
# schema as the return annotation), so help() and inspect show what a model
# or a person needs. A stub is built on each import from the definitions the
# host has now (a toolset may change between calls); a tool name that is not
# an identifier (a.b, get-weather) is reached with `_` in place of the other
# characters. Calling it is call(name, {the arguments given}).

_JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool,
               "null": type(None), "array": list, "object": dict}


def _schema_type(schema):
    """The annotation for a JSON Schema (typing objects where they say more)."""
    import typing
    if not isinstance(schema, dict):
        return typing.Any
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"]:
        try:
            return typing.Literal[tuple(schema["enum"])]
        except TypeError:
            return typing.Any
    kinds = schema.get("type")
    if isinstance(kinds, list):
        types = [_schema_type(dict(schema, type=k)) for k in kinds]
        return typing.Union[tuple(types)] if types else typing.Any
    if "anyOf" in schema or "oneOf" in schema:
        alts = schema.get("anyOf") or schema.get("oneOf")
        if isinstance(alts, list) and alts:
            return typing.Union[tuple(_schema_type(a) for a in alts)]
    if kinds == "array":
        items = schema.get("items")
        return list[_schema_type(items)] if isinstance(items, dict) else list
    if kinds == "object":
        values = schema.get("additionalProperties")
        if isinstance(values, dict) and not schema.get("properties"):
            return dict[str, _schema_type(values)]
        return dict[str, typing.Any]
    return _JSON_TYPES.get(kinds, typing.Any)


def _tool_stub(name, tool):
    import inspect
    import keyword
    schema = tool.get("input_schema") or {}
    props = schema.get("properties") if isinstance(schema, dict) else None
    props = props if isinstance(props, dict) else {}
    required = schema.get("required") if isinstance(schema, dict) else None
    required = [r for r in required if r in props] if isinstance(required, list) else []
    P = inspect.Parameter
    params, lines = [], []
    for pname in required + [p for p in props if p not in required]:
        if not pname.isidentifier() or keyword.iskeyword(pname) or pname == "self":
            continue
        ps = props[pname]
        default = ps.get("default") if isinstance(ps, dict) else None
        params.append(P(pname, P.POSITIONAL_OR_KEYWORD, annotation=_schema_type(ps),
                        default=P.empty if pname in required else default))
        desc = ps.get("description") if isinstance(ps, dict) else None
        lines.append("    %s%s%s" % (pname, "" if pname in required else " (optional)",
                                       ": " + desc if isinstance(desc, str) else ""))
    extra = len(params) < len(props) or not (isinstance(schema, dict) and schema.get("additionalProperties") is False)
    if extra:
        params.append(P("extra", P.VAR_KEYWORD))
    out = tool.get("output_schema")
    sig = inspect.Signature(params, return_annotation=_schema_type(out) if out else inspect.Signature.empty)
    given = [p.name for p in params if p.kind is P.POSITIONAL_OR_KEYWORD]

    def stub(*args, **kwargs):
        bound = sig.bind(*args, **kwargs)  # the arguments given, no defaults
        payload = {k: v for k, v in bound.arguments.items() if k in given}
        payload.update(bound.arguments.get("extra", {}))
        return _tool_call(name, payload)

    stub.__name__ = stub.__qualname__ = name if name.isidentifier() else name.replace(".", "_").replace("-", "_")
    stub.__module__ = "host_tools"
    stub.__signature__ = sig
    stub.__annotations__ = {p.name: p.annotation for p in params if p.annotation is not P.empty}
    if sig.return_annotation is not inspect.Signature.empty:
        stub.__annotations__["return"] = sig.return_annotation
    doc = tool.get("description") or ""
    stub.__doc__ = doc + ("\n\nArgs:\n" + "\n".join(lines) if lines else "")
    return stub


def _host_tools_getattr(attr):
    import json
    if attr.startswith("__"):
        raise AttributeError(attr)
    status, body, kind = _sbxw.tool_search("", "full", 100)
    found = [t for t in (json.loads(body) if status == 0 else ())
             if t["name"] == attr or t["name"].replace(".", "_").replace("-", "_") == attr]
    if not found and status == 0:  # past the first 100: rank by the name itself
        status, body, kind = _sbxw.tool_search(attr.replace("_", " "), "full", 100)
        found = [t for t in (json.loads(body) if status == 0 else ())
                 if t["name"] == attr or t["name"].replace(".", "_").replace("-", "_") == attr]
    if not found:
        raise AttributeError("host_tools has no tool %r (declared tools: host_tools.search(''))" % attr)
    return _tool_stub(found[0]["name"], found[0])


_host_tools.call = _tool_call
_host_tools.search = _tool_search
_host_tools.__getattr__ = _host_tools_getattr
sys.modules["host_tools"] = _host_tools


# ---- contexts ----------------------------------------------------------------------

# Each context's globals are the __dict__ of a module named __main__, which
# is sys.modules["__main__"] while a cell runs (and after): pickle finds the
# functions and classes a cell defines there, so multiprocessing and
# ProcessPoolExecutor work with them, as in a script or a notebook.
_mains = {}           # context name -> its __main__ module


def _fresh_globals(name):
    m = type(sys)("__main__")
    m.__dict__["__builtins__"] = builtins
    _mains[name] = m
    return m.__dict__


def _ctx(name, create=True):
    g = _contexts.get(name)
    if g is None and create:
        g = _contexts[name] = _fresh_globals(name)
    return g


def ctx_create(name):
    if name in _contexts:
        return (1, "context", "context '%s' already exists" % name)
    _contexts[name] = _fresh_globals(name)
    return (0, "", "")


def ctx_fork(name, src):
    if src not in _contexts:
        return (1, "context", "no context named '%s'" % src)
    if name in _contexts:
        return (1, "context", "context '%s' already exists" % name)
    import copy
    old = _contexts[src]
    new = _fresh_globals(name)
    memo = {}
    for k, v in old.items():
        # A deep copy where possible, so the fork never changes its parent;
        # modules, functions and uncopyable objects are shared.
        if isinstance(v, type(sys)) or k == "__builtins__":
            new[k] = v
            continue
        try:
            new[k] = copy.deepcopy(v, memo)
        except BaseException:
            new[k] = v
    _contexts[name] = new
    _protected[name] = set(_protected.get(src, ()))
    return (0, "", "")


def ctx_reset(name):
    _contexts[name] = _fresh_globals(name)
    _protected.pop(name, None)
    return (0, "", "")


def ctx_delete(name):
    if name not in _contexts:
        return (1, "context", "no context named '%s'" % name)
    del _contexts[name]
    _mains.pop(name, None)
    _protected.pop(name, None)
    return (0, "", "")


def _check_identifier(name):
    import keyword
    if not name.isidentifier() or keyword.iskeyword(name):
        return "'%s' is not a valid variable name" % name
    return None


def set_var(ctx, name, text):
    bad = _check_identifier(name)
    if bad:
        return (1, "value", bad)
    if name in _protected.get(ctx, ()):
        return (1, "protected", "'%s' is protected" % name)
    import json
    try:
        value = json.loads(text)
    except ValueError as e:
        return (1, "value", "invalid JSON: %s" % e)
    _ctx(ctx)[name] = value
    return (0, "", "")


def protect(ctx, name):
    bad = _check_identifier(name)
    if bad:
        return (1, "value", bad)
    _ctx(ctx)
    _protected.setdefault(ctx, set()).add(name)
    return (0, "", "")


# ---- compiling ------------------------------------------------------------------------

def _bindings(tree):
    """Names a module-level block binds or deletes (including `global` ones).

    Only computed when a context has protected names (ast is imported then)."""
    import ast
    names = set()

    class V(ast.NodeVisitor):
        def visit_Name(self, node):
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                names.add(node.id)

        def visit_Import(self, node):
            for a in node.names:
                names.add(a.asname or a.name.split(".")[0])

        visit_ImportFrom = visit_Import

        def visit_Global(self, node):
            names.update(node.names)

        def _scope(self, node):
            # A new scope binds only its own name here; `global` inside it
            # still reaches the module.
            names.add(node.name)
            for d in node.decorator_list:
                self.visit(d)
            for sub in ast.walk(node):
                if isinstance(sub, ast.Global):
                    names.update(sub.names)

        visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

        def visit_Lambda(self, node):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Global):
                    names.update(sub.names)

        def visit_NamedExpr(self, node):
            if isinstance(node.target, ast.Name):
                names.add(node.target.id)
            self.generic_visit(node)

    V().visit(tree)
    return frozenset(names)


def _compile(src, filename, want_repr):
    key = (src, filename, want_repr)
    hit = _cache.get(key)
    if hit is not None:
        return hit
    tree = compile(src, filename, "exec", _ast.PyCF_ONLY_AST, dont_inherit=True)
    expr = None
    if want_repr and tree.body and isinstance(tree.body[-1], _ast.Expr):
        last = tree.body.pop()
        expr = compile(_ast.Expression(last.value), filename, "eval", dont_inherit=True)
    body = compile(tree, filename, "exec", dont_inherit=True)
    if expr is not None:
        tree.body.append(last)  # whole again, for _bindings
    if len(_cache) >= 256:
        _cache.clear()
    hit = _cache[key] = [body, expr, tree]
    return hit


def _names_of(hit):
    """The names a compiled cell binds (computed once, when first needed)."""
    if not isinstance(hit[2], frozenset):
        hit[2] = _bindings(hit[2])
    return hit[2]


def _remember_source(filename, src):
    # Kept here; handed to linecache only when a traceback is formatted.
    if len(_sources) >= 512:
        _sources.clear()
    _sources[filename] = src


# ---- running -----------------------------------------------------------------------------

def _format_tb(e):
    import linecache
    import traceback
    for fn, src in _sources.items():
        linecache.cache[fn] = (len(src), None, src.splitlines(True), fn)
    tb = e.__traceback__
    # Drop our own frames from the top: the user sees only theirs.
    while tb is not None and tb.tb_frame.f_code.co_filename == _BOOT:
        tb = tb.tb_next
    text = "".join(traceback.format_exception(type(e), e, tb))
    if len(text) > _MAX_TB:
        text = text[:_MAX_TB // 2] + "\n... (traceback truncated) ...\n" + text[-_MAX_TB // 2:]
    return text


def _safe_str(e):
    try:
        return str(e)
    except BaseException:
        return "<unprintable %s>" % type(e).__name__


def _error(kind, e, exit_code=0):
    return (1, kind, type(e).__name__, _safe_str(e)[:_MAX_TB], _format_tb(e), "", exit_code)


def _exit_code(e):
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xff
    try:
        print(code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def _classify(e):
    if isinstance(e, KeyboardInterrupt):
        return "interrupt"
    if isinstance(e, MemoryError):
        return "memory"
    if isinstance(e, CPULimitExceeded):
        return "cpu"
    return "exception"


def _getcwd():
    # None when the working directory is gone (removed, or its entry dropped
    # by the host's invalidation: getcwd fails with ENOENT).
    try:
        return posix.getcwd()
    except OSError:
        return None


def run(ctx, src, filename, flags, argv, preload, cwd, env):
    """Runs one EXEC. flags: 1 repr, 2 script, 4 module, 8 host stdin,
    0x20 the script is a file's bytes (src holds them surrogate-escaped),
    0x40 the view is unchanged since the last EXEC: the chdir to cwd (a FUSE
    round trip) is skipped when the working directory is still cwd.

    env: None, or the list of "NAME=VALUE" that os.environ holds while a
    script or module runs (the shell's exported variables)."""
    want_repr, script, module, host_stdin = flags & 1, flags & 2, flags & 4, flags & 8
    _std_streams(bool(host_stdin))
    _refresh_paths()
    try:
        if cwd and not (flags & 0x40 and cwd == _state.cwd and _getcwd() == cwd):
            try:
                posix.chdir(cwd)
            except OSError as e:
                _state.cwd = None
                return (1, "cwd", type(e).__name__, "cannot change to %s: %s" % (cwd, e.strerror),
                        "", "", 0)
            _state.cwd = cwd
        for name in preload:
            try:
                __import__(name)
            except ImportError as e:
                return (1, "preload", type(e).__name__,
                        "preload_packages: cannot import '%s': %s" % (name, _safe_str(e)), "", "", 0)
            except BaseException as e:
                return _error("preload", e)
        if module:
            return _run_module(src, argv, env)
        if script:
            if flags & 0x20:
                # As python3 reads a file: bytes, so coding declarations apply.
                src = src.encode("utf-8", "surrogateescape")
            return _run_script(src, filename, argv, env)
        return _run_cell(ctx, src, filename, want_repr)
    finally:
        _state.running = False
        _flush()
        _std_streams()


def _run_cell(ctx, src, filename, want_repr):
    _state.images, _state.dropped = [], 0
    try:
        r = _run_cell_code(ctx, src, filename, want_repr)
        if "matplotlib.pyplot" in sys.modules:
            try:
                _capture_figures()
            except BaseException as e:
                _stderr.write("figures could not be returned: %s\n" % _safe_str(e))
        if _state.dropped:
            _stderr.write("[%d more figure(s) not returned: at most %d figures and %d MiB "
                          "per call]\n" % (_state.dropped, _MAX_IMAGES, _MAX_IMAGE_BYTES >> 20))
        return r + (_state.images,) if _state.images else r
    finally:
        _state.images = None


def _run_cell_code(ctx, src, filename, want_repr):
    if not filename:
        _state.cell += 1
        filename = "<cell-%d>" % _state.cell
    g = _ctx(ctx)
    sys.modules["__main__"] = _mains[ctx]
    try:
        hit = _compile(src, filename, want_repr)
        body, expr = hit[0], hit[1]
    except (SyntaxError, ValueError, OverflowError) as e:
        import traceback
        tb = "".join(traceback.format_exception_only(type(e), e))
        return (1, "syntax", type(e).__name__, _safe_str(e), tb, "", 0)
    except MemoryError as e:
        return _error("memory", e)
    prot = _protected.get(ctx)
    before = None
    if prot:
        bad = sorted(prot & _names_of(hit))
        if bad:
            return (1, "protected", "NameError", "cannot assign to protected name '%s'" % bad[0],
                    "", "", 0)
        before = {n: g.get(n, _protected) for n in prot}
    _remember_source(filename, src)
    value = None
    err = None
    try:
        _state.running = True
        exec(body, g)
        if expr is not None:
            value = eval(expr, g)
    except SystemExit as e:
        _state.running = False
        code = _exit_code(e)
        err = (1 if code else 0, "exit", "SystemExit", "exit status %d" % code, "", "", code)
    except BaseException as e:
        _state.running = False
        err = _error(_classify(e), e)
    finally:
        _state.running = False
    if before is not None:
        # Backstop for writes the static check cannot see (globals()[...] = ...).
        for n, old in before.items():
            cur = g.get(n, _protected)
            if cur is not old:
                if old is _protected:
                    g.pop(n, None)
                else:
                    g[n] = old
                if err is None:
                    err = (1, "protected", "NameError", "protected name '%s' was changed and "
                           "has been restored" % n, "", "", 0)
    if err is not None:
        return err
    text = ""
    if value is not None:
        try:
            text = repr(value)
        except BaseException as e:
            return _error(_classify(e), e)
        if len(text) > _MAX_REPR:
            text = text[:_MAX_REPR] + "...(truncated)"
    return (0, "", "", "", "", text, 0)


def _set_environ(entries):
    """Makes os.environ (and the C environment) exactly `entries`; returns
    what it held before, for _restore_environ."""
    import os
    saved = dict(os.environ)
    os.environ.clear()
    for e in entries:
        name, sep, value = e.partition("=")
        if not sep or not name:
            continue
        try:
            os.environ[name] = value
        except (ValueError, OSError):
            pass  # a name the C library refuses
    return saved


def _restore_environ(saved):
    import os
    os.environ.clear()
    os.environ.update(saved)


def _run_main(fn, argv, env):
    saved_argv, saved_path = sys.argv, sys.path[:]
    sys.argv = list(argv)
    saved_env = _set_environ(env) if env is not None else None
    try:
        _state.running = True
        fn()
        _state.running = False
        return (0, "", "", "", "", "", 0)
    except SystemExit as e:
        _state.running = False
        code = _exit_code(e)
        return (1 if code else 0, "exit", "SystemExit", "exit status %d" % code, "", "", code)
    except BaseException as e:
        _state.running = False
        r = _error(_classify(e), e)
        try:
            # As python3 does: the traceback goes to stderr, exit status 1.
            _stderr.write(r[4])
        except BaseException:
            pass
        return r[:6] + (1,)
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
        if saved_env is not None:
            _restore_environ(saved_env)


def _run_script(src, filename, argv, env):
    filename = filename or "<string>"
    try:
        code = compile(src, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        import traceback
        tb = "".join(traceback.format_exception_only(type(e), e))
        try:
            _stderr.write(tb)
        except BaseException:
            pass
        return (1, "syntax", type(e).__name__, _safe_str(e), tb, "", 1)
    if not filename.startswith("<"):
        # Tracebacks show a file's lines; like python3, not those of -c or stdin.
        _remember_source(filename, src.decode("utf-8", "replace") if isinstance(src, bytes) else src)
    g = {"__name__": "__main__", "__builtins__": builtins, "__doc__": None}
    if not filename.startswith("<"):
        g["__file__"] = filename
    path0 = filename.rpartition("/")[0] if not filename.startswith("<") else ""

    def go():
        sys.path.insert(0, path0)
        exec(code, g)

    return _run_main(go, argv, env)


def _run_module(name, argv, env):
    import runpy

    def go():
        sys.path.insert(0, "")
        runpy.run_module(name, run_name="__main__", alter_sys=True)

    return _run_main(go, argv, env)
