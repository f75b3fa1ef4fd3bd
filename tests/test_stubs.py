"""python/accjit/_core.pyi against the built extension module accjit._core.

The stubs are read with `ast` (not imported), so the checks see exactly what a type checker and
the docs site see: every public name of `_core` (and of its `data_api` submodule, and every member
of its classes) has a stub; every stub names something the module has; where the module carries
a text signature (pyo3 functions and methods do), parameter names, kinds and which have defaults
agree. A new binding without a stub fails here: add it to python/accjit/_core.pyi.
"""

import ast
import inspect
from pathlib import Path

import pytest

STUB = Path(__file__).resolve().parent.parent / "python" / "accjit" / "_core.pyi"
PACKAGE = STUB.parent

core = pytest.importorskip("accjit._core", reason="accjit._core is not built")

# dunders a stub documents when a class defines them (others, like __new__ and __doc__, are plumbing)
MEANINGFUL_DUNDERS = {"__call__", "__cuda_array_interface__", "__dlpack__", "__dlpack_device__",
                      "__getitem__", "__len__", "__iter__", "__enter__", "__exit__"}


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(), filename=str(STUB))


def defined_names(body):
    """name -> node of the definitions in a module or class body (private aliases `_X = ...` skipped)."""
    out = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name) and not t.id.startswith("_"):
                    out[t.id] = node
    return out


def public_names(mod):
    return {n for n in dir(mod) if not n.startswith("_")} | ({"__version__"} if hasattr(mod, "__version__") else set())


def class_members(cls):
    return {n for n in vars(cls) if not (n.startswith("__") and n.endswith("__")) or n in MEANINGFUL_DUNDERS}


def stub_params(fn: ast.FunctionDef, drop_self: bool):
    """[(name, kind, has_default)] of a stub function, with inspect's kind names."""
    a = fn.args
    positional = a.posonlyargs + a.args
    first_default = len(positional) - len(a.defaults)
    out = []
    for i, arg in enumerate(positional):
        kind = "POSITIONAL_ONLY" if arg in a.posonlyargs else "POSITIONAL_OR_KEYWORD"
        out.append((arg.arg, kind, i >= first_default))
    if a.vararg:
        out.append((a.vararg.arg, "VAR_POSITIONAL", False))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", d is not None))
    if a.kwarg:
        out.append((a.kwarg.arg, "VAR_KEYWORD", False))
    if drop_self and out and out[0][0] == "self":
        out = out[1:]
    return out


def runtime_params(obj, drop_self: bool):
    """The same of a module object, or None when inspect cannot read its signature."""
    if getattr(obj, "__text_signature__", None) is None:
        return None
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    out = [(p.name, p.kind.name, p.default is not inspect.Parameter.empty) for p in sig.parameters.values()]
    if drop_self and out and out[0][0] in ("self", "$self"):
        out = out[1:]
    return out


def is_static(fn: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list)


def test_stub_file_parses_and_py_typed_ships():
    assert stub_tree().body, "the stub file is empty"
    assert (PACKAGE / "py.typed").is_file(), "python/accjit/py.typed is missing (PEP 561 marker)"


def test_every_module_name_has_a_stub_and_back():
    stubs = defined_names(stub_tree().body)
    have = public_names(core)
    missing = sorted(have - set(stubs))
    assert not missing, f"accjit._core exports {missing} with no stub: add them to python/accjit/_core.pyi"
    extra = sorted(n for n in stubs if not n.startswith("_") and n not in have)
    assert not extra, f"python/accjit/_core.pyi stubs {extra}, which accjit._core does not export"


def test_class_members_have_stubs_and_back():
    stubs = defined_names(stub_tree().body)
    checked = 0
    for name in sorted(public_names(core)):
        obj = getattr(core, name)
        if not inspect.isclass(obj):
            continue
        node = stubs[name]
        assert isinstance(node, ast.ClassDef), f"{name} is a class in _core but not in the stub"
        if issubclass(obj, BaseException):
            # attributes are set per instance; the base class is what a stub can get wrong
            base = obj.__mro__[1].__name__
            bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
            assert bases == [base], f"stub of {name} derives from {bases}, the module's from {base}"
            continue
        members = defined_names(node.body)
        have = class_members(obj)
        missing = sorted(have - set(members))
        assert not missing, f"{name} has members {missing} with no stub in _core.pyi"
        extra = sorted(m for m in members if m not in have and m not in ("__init__", "__new__"))
        assert not extra, f"the stub of {name} has {extra}, which the class does not have"
        checked += 1
    assert checked >= 3, "expected at least Module, Dispatcher and DeviceView"


def test_data_api_submodule_has_stubs_and_back():
    stubs = defined_names(stub_tree().body)
    node = stubs.get("data_api")
    assert isinstance(node, ast.ClassDef), "data_api (a submodule of _core) needs its namespace in the stub"
    members = defined_names(node.body)
    have = public_names(core.data_api)
    assert sorted(have - set(members)) == [], f"data_api functions without a stub: {sorted(have - set(members))}"
    assert sorted(set(members) - have) == [], f"data_api stubs with no function: {sorted(set(members) - have)}"
    assert all(is_static(f) for f in members.values() if isinstance(f, ast.FunctionDef)), \
        "data_api stubs are module functions: declare them @staticmethod"


def _signature_pairs():
    tree = stub_tree()
    stubs = defined_names(tree.body)
    for name, node in sorted(stubs.items()):
        if isinstance(node, ast.FunctionDef) and hasattr(core, name):
            yield name, node, getattr(core, name), False
        elif isinstance(node, ast.ClassDef) and hasattr(core, name):
            owner = core.data_api if name == "data_api" else getattr(core, name)
            for m, sub in defined_names(node.body).items():
                if not isinstance(sub, ast.FunctionDef) or m in ("__init__", "__new__") or not hasattr(owner, m):
                    continue
                if any(isinstance(d, ast.Name) and d.id == "property" for d in sub.decorator_list):
                    continue
                yield f"{name}.{m}", sub, getattr(owner, m), not is_static(sub)


def test_signatures_agree_where_readable():
    compared = 0
    for qual, node, obj, method in _signature_pairs():
        want = runtime_params(obj, drop_self=method)
        if want is None:
            continue
        got = stub_params(node, drop_self=method)
        assert got == want, f"_core.pyi {qual}: stub parameters {got} differ from the module's {want}"
        compared += 1
    # compile_c, compile_fortran, the data API and the classes' methods all carry text signatures
    assert compared >= 40, f"only {compared} signatures could be compared"


def test_docstrings_in_stubs():
    for qual, node, _obj, _m in _signature_pairs():
        if node.name in ("__init__", "__new__"):
            continue
        assert ast.get_docstring(node), f"_core.pyi {qual} has no one-line docstring"


def test_mypy_stubtest(tmp_path):
    """mypy's stubtest: the stubs against the runtime module, as type checkers will read them
    (the intended differences are in tests/stubtest-allowlist.txt, each with its reason)."""
    pytest.importorskip("mypy", reason="mypy is not installed (./run test installs it)")
    import os
    import subprocess
    import sys
    env = dict(os.environ)
    env["MYPYPATH"] = str(PACKAGE.parent)
    env["PYTHONPATH"] = os.pathsep.join(x for x in (env.get("PYTHONPATH"), str(PACKAGE.parent)) if x)
    allow = Path(__file__).resolve().parent / "stubtest-allowlist.txt"
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\ncache_dir = {tmp_path / 'cache'}\n")
    cp = subprocess.run([sys.executable, "-m", "mypy.stubtest", "accjit._core", "--allowlist", str(allow),
                         "--mypy-config-file", str(config)],
                        capture_output=True, text=True, env=env, cwd=PACKAGE.parent, timeout=600)
    assert cp.returncode == 0, cp.stdout[-6000:] + cp.stderr[-2000:]
