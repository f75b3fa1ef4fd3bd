"""Python functions → the kernel tree the Rust front end reads.

``request(fn, kind, keywords, level)`` finds the function's source (files,
Jupyter cells through ``linecache``, ``python -c`` through
``sys.orig_argv``), parses it with Python's own ``ast``, and writes the
S-expression text described in ``rust/front/python/src/tree.rs`` and
``lib.rs``: the function's tree with positions in the user's file, the
decorator's clauses as expressions, and the globals/closure variables the
body uses (constants frozen now, as Numba does; modules; routines with
their own trees).
"""

from __future__ import annotations

import ast
import builtins
import inspect
import json
import linecache
import math
import sys
import textwrap
import types

__all__ = ["request", "source_of", "SourceUnavailable"]


class SourceUnavailable(Exception):
    """The function's source text cannot be found (needed to compile it)."""


def source_of(fn):
    """(file name, text padded so line numbers match the file, the function's
    ``FunctionDef`` with positions in that file)."""
    code = fn.__code__
    filename = code.co_filename
    first = code.co_firstlineno
    lines = linecache.getlines(filename)
    if not lines and filename == "<string>" and "-c" in getattr(sys, "orig_argv", []):
        argv = sys.orig_argv
        lines = (argv[argv.index("-c") + 1] + "\n").splitlines(True)
    if not lines:
        try:
            lines, first = inspect.getsourcelines(fn)
            lines = ["\n"] * (first - 1) + list(lines)
        except (OSError, TypeError) as e:
            raise SourceUnavailable(f"cannot find the source of {fn.__qualname__}: {e}") from None
    # The block starting at the def (or its first decorator).
    start = first - 1
    if start >= len(lines):
        raise SourceUnavailable(f"cannot find the source of {fn.__qualname__} in {filename}")
    indent = len(lines[start]) - len(lines[start].lstrip())
    try:
        # Python's own block finder: decorators, multi-line signatures.
        end = start + len(inspect.getblock(lines[start:]))
    except Exception:
        end = start + 1
        while end < len(lines) and (lines[end].strip().startswith("@") or lines[end - 1].strip().startswith("@")):
            end += 1
        while end < len(lines):
            line = lines[end]
            stripped = line.strip()
            if stripped and not stripped.startswith("#") and len(line) - len(line.lstrip()) <= indent:
                break
            end += 1
    block = textwrap.dedent("".join(lines[start:end]))
    try:
        mod = ast.parse(block)
    except SyntaxError as e:
        raise SourceUnavailable(f"cannot parse the source of {fn.__qualname__}: {e}") from None
    func = next((n for n in mod.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if func is None:
        raise SourceUnavailable(f"the source of {fn.__qualname__} at {filename}:{first} is not a def")
    dedent = indent
    for node in ast.walk(func):
        if hasattr(node, "lineno"):
            node.lineno += start
            node.end_lineno = (node.end_lineno or node.lineno - start) + start
            node.col_offset += dedent
            node.end_col_offset = (node.end_col_offset or 0) + dedent
    text = "".join(lines[:end])
    return filename, text, func


# ---- writing the tree ----

def _pos(node):
    return (
        getattr(node, "lineno", 0) or 0,
        getattr(node, "col_offset", 0) or 0,
        getattr(node, "end_lineno", 0) or 0,
        getattr(node, "end_col_offset", 0) or 0,
    )


def _float(x: float) -> str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return repr(float(x))


def _atom(v, out):
    if v is None:
        out.append("#n")
    elif v is True:
        out.append("#t")
    elif v is False:
        out.append("#f")
    elif isinstance(v, int):
        out.append(str(int(v)))
    elif isinstance(v, float):
        out.append("f" + _float(v))
    elif isinstance(v, complex):
        out.append("j" + _float(v.real) + "," + _float(v.imag))
    elif isinstance(v, str):
        out.append(json.dumps(v))
    elif isinstance(v, bytes):
        out.append(json.dumps(v.decode("latin-1")))
    elif isinstance(v, ast.AST):
        _node(v, out)
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for x in v:
            _atom(x, out)
            out.append(" ")
        out.append("]")
    elif v is Ellipsis:
        out.append('"..."')
    else:
        out.append(json.dumps(repr(v)))


def _node(node, out, extra=()):
    kind = type(node).__name__
    out.append("(%s %d %d %d %d" % ((kind,) + _pos(node)))
    for name, value in list(ast.iter_fields(node)) + list(extra):
        if value is None or (isinstance(value, list) and not value):
            continue
        if name in ("type_comment", "kind"):
            continue
        out.append(" " + name + "=")
        if isinstance(value, ast.expr_context):  # shared singletons: no positions
            out.append('"%s"' % type(value).__name__)
        elif isinstance(value, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
            out.append("(%s 0 0 0 0)" % type(value).__name__)
        else:
            _atom(value, out)
    out.append(")")


class _Pseudo(ast.AST):
    """A request node of our own (Request, Const, ModuleRef, …)."""

    def __init__(self, _kind, pos=(0, 0, 0, 0), **fields):
        self._kind = _kind
        self._pos = pos
        self._fields_ = fields

    def write(self, out):
        out.append("(%s %d %d %d %d" % ((self._kind,) + tuple(self._pos)))
        for name, value in self._fields_.items():
            if value is None:
                continue
            out.append(" " + name + "=")
            if isinstance(value, _Pseudo):
                value.write(out)
            elif isinstance(value, list) and value and isinstance(value[0], _Pseudo):
                out.append("[")
                for v in value:
                    v.write(out)
                    out.append(" ")
                out.append("]")
            else:
                _atom(value, out)
        out.append(")")


# ---- decorator clauses as expressions ----

def _clause_expr(value, pos):
    """A Python clause value as an ``ast`` expression positioned at ``pos``."""
    line, col = pos[0], pos[1]

    def at(n):
        for sub in ast.walk(n):
            sub.lineno, sub.col_offset, sub.end_lineno, sub.end_col_offset = line, col, line, col
        return n

    if isinstance(value, str):
        try:
            return at(ast.parse(value.strip(), mode="eval").body)
        except SyntaxError:
            return at(ast.Constant(value))
    if isinstance(value, dict):
        return at(ast.Dict(keys=[_clause_expr(k, pos) for k in value], values=[_clause_expr(v, pos) for v in value.values()]))
    if isinstance(value, (list, tuple)):
        items = [_clause_expr(v, pos) for v in value]
        return at(ast.List(elts=items, ctx=ast.Load()) if isinstance(value, list) else ast.Tuple(elts=items, ctx=ast.Load()))
    if isinstance(value, types.FunctionType) or hasattr(value, "__wrapped_pyfunc__"):
        return at(ast.Name(id=getattr(value, "__name__", "?"), ctx=ast.Load()))
    if hasattr(value, "item") and hasattr(value, "dtype"):  # NumPy scalar
        value = value.item()
    return at(ast.Constant(value))


# ---- globals ----

_MODULES = {"math", "cmath", "numpy", "accjit"}


def _referenced_names(func):
    assigned = {a.arg for a in func.args.args + func.args.kwonlyargs + func.args.posonlyargs}
    if func.args.vararg:
        assigned.add(func.args.vararg.arg)
    if func.args.kwarg:
        assigned.add(func.args.kwarg.arg)
    loads = []
    for node in ast.walk(func):
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                loads.append(node.id)
            else:
                assigned.add(node.id)
    seen = set()
    return [n for n in loads if n not in assigned and not (n in seen or seen.add(n))]


def _lookup(fn, name):
    code = fn.__code__
    if fn.__closure__ and name in code.co_freevars:
        try:
            return True, fn.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:
            return False, None
    if name in fn.__globals__:
        return True, fn.__globals__[name]
    if hasattr(builtins, name):
        return False, None  # a builtin: the front end knows the ones it supports
    return False, None


def _env(fn, names, seen_routines):
    import numpy as np

    env = []
    for name in names:
        found, value = _lookup(fn, name)
        if not found:
            continue
        if isinstance(value, types.ModuleType):
            mod = value.__name__
            if mod.startswith("accjit"):
                mod = "accjit"
            env.append(_Pseudo("ModuleRef", name=name, module=mod))
        elif isinstance(value, (bool, np.bool_)):
            env.append(_Pseudo("Const", name=name, value=bool(value), dtype="bool"))
        elif isinstance(value, np.generic) and value.dtype.kind in "iufc":
            env.append(_Pseudo("Const", name=name, value=value.item(), dtype=str(value.dtype)))
        elif isinstance(value, int):  # Python scalars are "weak" (NEP 50)
            env.append(_Pseudo("Const", name=name, value=int(value), dtype="int64", weak=True))
        elif isinstance(value, float):
            env.append(_Pseudo("Const", name=name, value=float(value), dtype="float64", weak=True))
        elif isinstance(value, complex):
            env.append(_Pseudo("Const", name=name, value=complex(value), dtype="complex128", weak=True))
        elif getattr(value, "_accjit_kind", None) == "routine":
            env.append(_routine_ref(name, value, seen_routines))
        elif getattr(value, "_accjit_kind", None) is not None:
            env.append(_Pseudo("Unsupported", name=name, what=f"an @acc.{value._accjit_kind} function (only @acc.routine functions can be called from compiled code)"))
        elif isinstance(value, type) and issubclass(value, np.generic):
            env.append(_Pseudo("FuncRef", name=name, qualname="numpy." + value.__name__))
        elif callable(value) and getattr(value, "__module__", None) in ("math", "cmath"):
            env.append(_Pseudo("FuncRef", name=name, qualname=value.__module__ + "." + value.__name__))
        elif isinstance(value, np.ufunc) or (callable(value) and (getattr(value, "__module__", "") or "").startswith("numpy")):
            env.append(_Pseudo("FuncRef", name=name, qualname="numpy." + getattr(value, "__name__", name)))
        elif callable(value) and (getattr(value, "__module__", "") or "").startswith("accjit"):
            env.append(_Pseudo("FuncRef", name=name, qualname="accjit." + getattr(value, "__name__", name)))
        else:
            what = "a NumPy array (pass it as an argument)" if isinstance(value, np.ndarray) else f"a {type(value).__name__}"
            env.append(_Pseudo("Unsupported", name=name, what=what))
    return env


def _routine_ref(name, dispatcher, seen_routines):
    py = dispatcher.py_func
    key = id(py)
    if key in seen_routines:  # recursion or a routine called twice: its tree is already written
        return _Pseudo("Routine", name=name, ref=py.__qualname__, level=dispatcher._accjit_level)
    seen_routines.add(key)
    filename, text, func = source_of(py)
    return _Pseudo(
        "Routine",
        name=name,
        ref=py.__qualname__,
        kind="routine",
        level=dispatcher._accjit_level,
        file=filename,
        text=text,
        func=func,
        env=_env(py, _referenced_names(func), seen_routines),
    )


def request(fn, kind: str, keywords: dict | None = None, level: str | None = None) -> str:
    """The request text for compiling ``fn`` as an ``@acc.<kind>`` function."""
    filename, text, func = source_of(fn)
    pos = _pos(func)
    # A clause written in the decorator is reported at its own `name=value` (the
    # decorator's keyword in the source); one given otherwise, at the def.
    written = {}
    for d in getattr(func, "decorator_list", []):
        callee = getattr(d, "func", None)
        if isinstance(d, ast.Call) and getattr(callee, "attr", getattr(callee, "id", None)) == kind:
            for k in d.keywords:
                if k.arg is not None and k.arg not in written and getattr(k, "lineno", None):
                    written[k.arg] = _pos(k)
    kws = [ast.keyword(arg=k, value=_clause_expr(v, written.get(k, pos))) for k, v in (keywords or {}).items()]
    for k in kws:
        k.lineno, k.col_offset, k.end_lineno, k.end_col_offset = written.get(k.arg, pos)
    names = _referenced_names(func)
    for k in kws:
        names += [n.id for n in ast.walk(k.value) if isinstance(n, ast.Name) and n.id not in names]
    req = _Pseudo(
        "Request",
        kind=kind,
        ref=fn.__qualname__,
        file=filename,
        text=text,
        func=func,
        keywords=kws,
        level=level,
        env=_env(fn, names, {id(fn)}),
    )
    out = []
    req.write(out)
    return "".join(out)
