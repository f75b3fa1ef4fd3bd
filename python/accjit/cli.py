"""The `accjit` command.

    accjit run [-D NAME[=VAL]] [-U NAME] [-I DIR] [--device TYPE] [--info] prog.c [args...]
    accjit run [options] main.F90 [mod.F90 ...] [--] [args...]
    accjit clif [options] prog.c      print the generated Cranelift IR
    accjit ir   [options] prog.c      print the lowered accjit IR
    accjit ptx  [options] prog.c      print the PTX of its kernels for the nvidia device
    accjit info                       version, devices of each type, threads, cache
    accjit cache info                 the on-disk kernel cache: directory, entries, size, limit
    accjit cache clear                remove the disk cache's entries (accjit's own files only)

The language is the file's: `.f90 .F90 .f .F .f95 .f03 .f08 ...` (either
case) are Fortran, everything else C. A Fortran program may be several
files: the Fortran files right after the first are compiled with it (`--`
ends them; the rest are the program's arguments), and a module that a file
`use`s and that is not given is looked for beside the first file
(`foo.f90`, `foo.F90`, ... or a sibling file defining `module foo`).

`run --info` (or the environment variable ACCJIT_INFO=1) prints the
compile report on stderr before the program runs: each compute region with
its data clauses (implicit ones with why), each loop with the levels it
runs on and why, compile times (`accjit._report`).

`run` exits with main's return value (Fortran: 0, or `stop n`'s n). A
compile error prints the rendered diagnostics on stderr and exits 1.
`exit()` inside the program (Fortran: `stop`, `error stop`, `call exit(n)`)
ends the process with that status, as for a compiled program.
"""

from __future__ import annotations

import argparse
import os
import sys


def _add_compile_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("--device", dest="device", default=None, metavar="TYPE", help="device type (multicore, host, nvidia); default: ACC_DEVICE_TYPE or multicore")


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="accjit", description="JIT OpenACC engine: compile and run OpenACC C on the multicore CPU.")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")
    run = sub.add_parser("run", help="compile and run a C program; exits with main's return value")
    _add_compile_options(run)
    run.add_argument("--info", action="store_true", help="print the compile report (regions, data, loop schedules, compile times) on stderr before running; also ACCJIT_INFO=1")
    run.add_argument("file", help="the C or Fortran source file")
    run.add_argument("args", nargs=argparse.REMAINDER, help="more Fortran source files, then (after --) arguments passed to main")
    for name, what in (("clif", "print the Cranelift IR of every function and kernel"), ("ir", "print the lowered accjit IR")):
        p = sub.add_parser(name, help=what)
        _add_compile_options(p)
        p.add_argument("file", help="the C or Fortran source file")
        p.add_argument("more", nargs="*", help="more Fortran source files of the program")
    p = sub.add_parser("ptx", help="print the PTX of the kernels for the nvidia device (no GPU needed)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("-U", dest="undefines", action="append", default=[], metavar="NAME", help="undefine a macro")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("file", help="the C or Fortran source file")
    p.add_argument("more", nargs="*", help="more Fortran source files of the program")
    sub.add_parser("info", help="version, each device type with its devices (or why it has none), threads, cache")
    cache = sub.add_parser("cache", help="inspect or empty the on-disk kernel cache")
    cache_sub = cache.add_subparsers(dest="cache_cmd", metavar="ACTION")
    cache_sub.add_parser("info", help="directory, entries, bytes and size limit (ACCJIT_CACHE_MAX_MB)")
    cache_sub.add_parser("clear", help="remove the cache's entries (only accjit's own files)")
    return ap


def _split_fortran_files(first, rest):
    """(source files, program arguments) of `run`: a Fortran first file takes
    the Fortran files after it, up to `--` or the first other argument."""
    from . import _core

    files = [first]
    if not _core.is_fortran_file(first):
        return files, rest
    i = 0
    while i < len(rest) and rest[i] != "--" and _core.is_fortran_file(rest[i]):
        files.append(rest[i])
        i += 1
    return files, rest[i:]


def _fortran_sources(files):
    from . import _core

    try:
        return _core.fortran_sources(files)
    except _core.CompileError as e:
        print(f"accjit: {str(e).removeprefix('error: ')}", file=sys.stderr)
        sys.exit(2)


def _compile(args, keep_clif=False, files=None):
    from . import _core
    from ._cmodule import _normalize_defines

    files = files or [args.file, *getattr(args, "more", [])]
    if _core.is_fortran_file(args.file):
        _set_device(args)
        try:
            return _core.compile_fortran(
                _fortran_sources(files),
                device_type=args.device,
                defines=_normalize_defines(args.defines),
                undefines=args.undefines,
                include_dirs=args.include_dirs,
                keep_clif=keep_clif,
            )
        except _core.CompileError as e:
            sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
            sys.exit(1)
    if len(files) > 1:
        print(f"accjit: {args.file}: one C source file at a time (more files are Fortran only)", file=sys.stderr)
        sys.exit(2)
    try:
        with open(args.file, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError as e:
        print(f"accjit: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    _set_device(args)
    try:
        return _core.compile_c(
            text,
            name=args.file,
            device_type=args.device,
            defines=_normalize_defines(args.defines),
            undefines=args.undefines,
            include_dirs=args.include_dirs,
            keep_clif=keep_clif,
        )
    except _core.CompileError as e:
        sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
        sys.exit(1)


def _set_device(args):
    from . import _core

    if args.device:
        # The device type is a runtime setting too: kernels launch on it.
        try:
            _core.set_device_type(args.device)
        except (ValueError, _core.AccError) as e:
            print(f"accjit: --device {args.device}: {e}", file=sys.stderr)
            sys.exit(2)


def _size(n: int) -> str:
    """Bytes for people: 0 B, 812 B, 4.2 KiB, 1.5 MiB, 80.0 GiB."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


def _libcuda_present() -> bool:
    """libcuda (the NVIDIA driver's library) can be loaded."""
    import ctypes

    for name in ("libcuda.so.1", "libcuda.so"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


def _nvidia_lines() -> list:
    """The nvidia device type's devices, or why there are none."""
    from . import _core

    cuda = _core.cuda_devices()
    if not cuda["available"]:
        if not _libcuda_present():
            return ["    none: libcuda.so not found (no NVIDIA driver installed)"]
        return ["    none: libcuda.so was found but the CUDA driver did not initialise (cuInit failed: no usable GPU, or the driver is too old)"]
    if not cuda["devices"]:
        return ["    none: the CUDA driver reports no GPU"]
    v = cuda["driver_version"]
    lines = [f"    CUDA driver {v // 1000}.{v % 1000 // 10}"]
    for g in cuda["devices"]:
        if "error" in g:
            lines.append(f"    {g['ordinal']}: cannot be opened: {g['error']}")
        else:
            major, minor = g["compute_capability"]
            lines.append(f"    {g['ordinal']}: {g['name']}, {_size(g['memory'])}, compute capability {major}.{minor}, {g['sm_count']} SMs")
    return lines


def _info() -> int:
    import accjit as acc
    from . import _core

    print(f"accjit {acc.__version__} ({_core.ENGINE_VERSION})")
    print(f"python {sys.version.split()[0]}, numpy {__import__('numpy').__version__}")
    current = acc.get_device_type()
    print(f"device types (current: {current}):")
    for d in ("host", "multicore", "nvidia", "opencl"):
        print(f"  {d}")
        if d in ("host", "multicore"):
            name = acc.get_property("name", 0, d)
            print(f"    0: {name}, {_size(acc.get_property('memory', 0, d))} memory")
        elif d == "nvidia":
            for line in _nvidia_lines():
                print(line)
        else:
            print("    none: the opencl back end is not built yet")
    print(f"threads: {acc.get_num_threads()} (CPU count {os.cpu_count()})")
    print("back ends: cranelift (host code and multicore kernels), ptx (nvidia kernels)")
    _print_cache_info(indent="")
    for var in ("ACC_DEVICE_TYPE", "ACC_DEVICE_NUM", "ACCJIT_NUM_THREADS", "ACC_NUM_CORES", "ACCJIT_CACHE_DIR", "ACCJIT_CACHE_MAX_MB"):
        if os.environ.get(var):
            print(f"{var}={os.environ[var]}")
    return 0


def _print_cache_info(indent: str) -> None:
    from ._cache import cache_info

    i = cache_info()
    where = i["dir"] if i["exists"] else f"{i['dir']} (not created yet)"
    print(f"{indent}cache directory: {where}")
    print(f"{indent}cache entries: {i['entries']} ({_size(i['bytes'])}; limit {_size(i['max_bytes'])}, ACCJIT_CACHE_MAX_MB)")


def _cache(args) -> int:
    from ._cache import cache_clear, cache_info

    if args.cache_cmd == "info":
        i = cache_info()
        print(f"directory: {i['dir']}{'' if i['exists'] else ' (not created yet)'}")
        print(f"entries: {i['entries']}")
        print(f"bytes: {i['bytes']} ({_size(i['bytes'])})")
        print(f"limit: {i['max_bytes']} ({_size(i['max_bytes'])}, ACCJIT_CACHE_MAX_MB)")
        print("holds: compiled programs (prog-*.bin: native code, PTX) and cubins of nvidia kernels (cuda-*.bin)")
        return 0
    if args.cache_cmd == "clear":
        dir = cache_info()["dir"]
        r = cache_clear()
        print(f"removed {r['entries']} entries ({_size(r['bytes'])}) from {dir}")
        return 0
    print("usage: accjit cache {info,clear}", file=sys.stderr)
    return 2


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.cmd is None:
        _parser().print_help()
        return 2
    if args.cmd == "info":
        return _info()
    if args.cmd == "cache":
        return _cache(args)
    if args.cmd == "clif":
        m = _compile(args, keep_clif=True)
        sys.stdout.write(m.clif())
        return 0
    if args.cmd == "ptx":
        from . import _core
        from ._cmodule import _normalize_defines

        if _core.is_fortran_file(args.file):
            try:
                out = _core.ptx_text_fortran(
                    _fortran_sources([args.file, *args.more]),
                    defines=_normalize_defines(args.defines),
                    undefines=args.undefines,
                    include_dirs=args.include_dirs,
                )
            except _core.CompileError as e:
                sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
                return 1
            sys.stdout.write(out)
            return 0
        if args.more:
            print(f"accjit: {args.file}: one C source file at a time (more files are Fortran only)", file=sys.stderr)
            return 2
        try:
            with open(args.file, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read()
        except OSError as e:
            print(f"accjit: cannot read {args.file}: {e.strerror}", file=sys.stderr)
            return 2
        try:
            out = _core.ptx_text(text, name=args.file, defines=_normalize_defines(args.defines), undefines=args.undefines, include_dirs=args.include_dirs)
        except _core.CompileError as e:
            sys.stderr.write(e.rendered if e.rendered.endswith("\n") else e.rendered + "\n")
            return 1
        sys.stdout.write(out)
        return 0
    if args.cmd == "ir":
        m = _compile(args)
        sys.stdout.write(m.ir())
        return 0
    if args.cmd == "run":
        files, prog_args = _split_fortran_files(args.file, args.args)
        m = _compile(args, files=files)
        if prog_args and prog_args[0] == "--":
            prog_args = prog_args[1:]
        if args.info or os.environ.get("ACCJIT_INFO", "") not in ("", "0"):
            from ._report import Report

            print(Report(m.report()), file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            # Not hosted: exit(), abort() and runtime errors end this process,
            # with the program's status, as for a compiled C program.
            status = m.run_main([args.file, *prog_args], hosted=False)
        except KeyboardInterrupt:
            print("accjit: interrupted", file=sys.stderr)
            return 130
        except RuntimeError as e:
            print(f"accjit: {e}", file=sys.stderr)
            return 1
        return status & 0xFF
    return 2


if __name__ == "__main__":
    sys.exit(main())
