"""The compile report, rendered: text like NVHPC's ``-Minfo=accel``
(``accjit run --info``, ``ACCJIT_INFO=1``, ``print(lib.report())``) and
HTML tables (the ``%%acc`` cell magic, ``lib.report()`` as a notebook
cell's value). The data comes from the Rust driver (``report.rs``), the same
for C, Fortran and Python kernels; this module only lays it out.
"""

from __future__ import annotations

import html
import os

__all__ = ["Report", "regions_html"]


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms"


# Why the front end added a clause (an array the region uses with no clause, §2.6.2).
_ADDED_WHY = {
    "copy": "an array the region uses with no clause: present if on the device, else copied in and out (§2.6.2)",
    "copyin": "an array the region uses with no clause and never writes: present if on the device, else copied in only",
    "present": "default(present): an array the region uses must already be on the device",
}


def _clause(c: dict) -> str:
    """``copy(x[0:n])``; a reduction as ``reduction(+:s)``."""
    name, var = c["clause"], c["var"]
    if name.startswith("reduction(") and name.endswith(")"):
        return f"reduction({name[len('reduction('):-1]}:{var})"
    return f"{name}({var})"


def _launch(clause: str, value: str) -> str:
    """``num_gangs(8)``; ``thread block: 256x1``, ``gangs of k: 1``."""
    return f"{clause}: {value}" if " " in clause else f"{clause}({value})"


def _base(path: str) -> str:
    return os.path.basename(path) or path


class Report(dict):
    """What the compiler made of a program (``CModule.report()``,
    ``FModule.report()``): a dict of ``name``, ``device_type``, ``kernels``
    (count), ``timings`` (seconds per stage), ``regions`` and ``loops``.

    Each region: ``kind``, ``file``, ``line``, ``source``, ``function``,
    ``kernels`` (the outlined kernels), ``clauses`` (each a dict of
    ``clause``, ``var``, ``implicit``, ``why``: written clauses and the
    attributes the compiler chose, §2.6.2), ``launch`` (num_gangs,
    num_workers, vector_length, async as given; on nvidia also the ``thread
    block`` each kernel launches with, lanes x workers) and ``loops`` (those
    inside it). Each loop: ``file``, ``line``, ``source``, ``schedule``
    (``"gang vector(128)"``, ``"collapse(2) gang vector"``, ``"seq"``),
    ``reason`` (why: as written, chosen by the compiler, or why a
    ``kernels``/``auto`` loop stayed sequential) and ``clauses``.

    ``str()`` is the text form, ``_repr_html_()`` the HTML form.
    """

    def __init__(self, raw: dict):
        super().__init__(raw)
        self["loops"] = [dict(lp, clauses=[{"clause": c, "var": v} for c, v in lp.get("clauses", [])]) for lp in raw["loops"]]
        self["regions"] = [dict(r) for r in raw["regions"]]
        for r in self["regions"]:
            r["loops"] = [lp for lp in self["loops"] if self._region_of(lp) is r]
            self._mark_clauses(r)

    @staticmethod
    def _mark_clauses(r: dict) -> None:
        """Each clause as a dict with ``implicit`` and ``why``."""
        reduced = {v for c, v, _added in r["clauses"] if c.startswith("reduction")}
        reduced |= {c["var"] for lp in r["loops"] for c in lp["clauses"] if c["clause"].startswith("reduction")}
        around = {}
        for v, line in r.get("enclosing", []):
            around.setdefault(v, line)
        clauses = []
        for c, v, added in r["clauses"]:
            root = v.split("[")[0].split("(")[0].strip()
            implicit = added
            if c == "copy" and root in reduced:
                why, implicit = "implied by the reduction: its result comes back to the host", True
            elif added and root in around:
                why = f"found present: the data region of line {around[root]} put it on the device, nothing moves"
            elif added:
                why = _ADDED_WHY.get(c, "chosen by the compiler")
            elif root in around and c in ("copy", "copyin", "copyout", "create", "present"):
                why = f"as written; found present (the data region of line {around[root]})"
            else:
                why = "as written"
            clauses.append({"clause": c, "var": v, "implicit": implicit, "why": why})
        for c, v, why in r.get("implicit", []):
            clauses.append({"clause": c, "var": v, "implicit": True, "why": why})
        r["clauses"] = clauses
        r.pop("implicit", None)

    def _region_of(self, lp: dict):
        """The last region of the loop's file starting at or before it."""
        best = None
        for r in self["regions"]:
            if r["file"] == lp["file"] and r["line"] <= lp["line"] and (best is None or r["line"] >= best["line"]):
                best = r
        return best

    # -- text ---------------------------------------------------------------

    def headline(self) -> str:
        t = self["timings"]
        n = self["kernels"]
        where = ""
        # the native code (and PTX) was loaded, not generated: rust/driver/src/disk.rs
        disk = " from the disk cache" if self.get("from_disk_cache") else ""
        if self["device_type"] == "multicore" and n:
            from . import _core

            threads = _core.get_num_threads()
            where = f" (gangs on the pool's {threads} thread{'s' if threads != 1 else ''})"
        return (
            f"{_base(self['name'])} for {self['device_type']}: {n} kernel{'s' if n != 1 else ''}{where}, compiled in {_ms(t['total'])} "
            f"(parse {_ms(t['parse'])}, lower {_ms(t['lower'])}, codegen {_ms(t['codegen'])}{disk})"
        )

    def __str__(self) -> str:
        lines = [self.headline()]
        if not self["regions"]:
            lines.append("  no compute regions")
        function = None
        for r in self["regions"]:
            if r["function"] != function:
                function = r["function"]
                lines.append(f"{function}:")
            where = f"{_base(r['file'])}:{r['line']}"
            kern = f" -> kernel{'s' if len(r['kernels']) != 1 else ''} {', '.join(r['kernels'])}" if r["kernels"] else ""
            launch = "".join(f", {_launch(c, v)}" for c, v in r["launch"])
            lines.append(f"  {where}: {r['kind']} region{kern}{launch}")
            width = max((len(_clause(c)) for c in r["clauses"]), default=0)
            for c in r["clauses"]:
                cv = _clause(c)
                lines.append(f"      {cv:<{width}}  {'implicit: ' if c['implicit'] else ''}{c['why']}")
            if not r["clauses"]:
                lines.append("      (no data)")
            for lp in r["loops"]:
                extra = "".join(f" {_clause(c)}" for c in lp["clauses"])
                lines.append(f"  {_base(lp['file'])}:{lp['line']}: loop {lp['schedule']}{extra} -- {lp['reason']}")
        return "\n".join(lines)

    # -- HTML ---------------------------------------------------------------

    def _repr_html_(self) -> str:
        return regions_html(self.headline(), self["regions"])

    def _repr_pretty_(self, p, cycle):  # IPython's plain-text display
        p.text(str(self))


def regions_html(headline: str, regions: list) -> str:
    """The report's HTML: the headline, then a table per region (its data
    clauses, then its loops). Also `Kernel.inspect()`'s HTML."""
    e = html.escape
    out = [
        '<div class="accjit-report">',
        f"<p><b>accjit</b> {e(headline)}</p>",
    ]
    if not regions:
        out.append("<p>no compute regions</p>")
    for r in regions:
        kern = ", ".join(r["kernels"])
        launch = "".join(f", {e(_launch(c, v))}" for c, v in r.get("launch", []))
        out.append('<table class="accjit-region" style="border-collapse:collapse;margin-bottom:0.8em">')
        out.append(
            f'<caption style="text-align:left"><b>{e(r["kind"])} region</b> in <code>{e(r.get("function", ""))}</code> '
            f"at {e(_base(r['file']))}:{r['line']}{' &rarr; ' + e(kern) if kern else ''}{launch}</caption>"
        )
        out.append("<tr><th>line</th><th>source</th><th>became</th><th>why</th></tr>")
        for c in r["clauses"]:
            tag = "implicit: " if c["implicit"] else ""
            out.append(
                f'<tr class="accjit-data"><td>{r["line"]}</td><td>data</td>'
                f'<td><code>{e(_clause(c))}</code></td><td>{tag}{e(c["why"])}</td></tr>'
            )
        for lp in r.get("loops", []):
            extra = "".join(f" {e(_clause(c))}" for c in _as_dicts(lp.get("clauses", [])))
            out.append(
                f'<tr class="accjit-loop"><td>{lp["line"]}</td><td><code>{e(lp["source"])}</code></td>'
                f'<td><b>{e(lp["schedule"])}</b>{extra}</td><td>{e(lp["reason"])}</td></tr>'
            )
        out.append("</table>")
    out.append("</div>")
    return "\n".join(out)


def _as_dicts(clauses) -> list:
    """Clauses as dicts of ``clause`` and ``var`` (the binding gives pairs)."""
    return [c if isinstance(c, dict) else {"clause": c[0], "var": c[1]} for c in clauses]
