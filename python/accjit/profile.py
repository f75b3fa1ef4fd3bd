"""Profiling OpenACC work from Python: ``with acc.profile() as prof:``.

While a profile is open, every runtime event — data allocation and
transfers, kernel launches, waits, errors; from ``acc.c`` kernels, whole
programs and the Python data API alike — is buffered in Rust (the runtime's
recorder hook) and handed to Python when the block ends::

    with acc.profile() as prof:
        with acc.data(copyin={"x": x}):
            lib.step(x.size, x)
    prof.events             # list of dicts, one per event
    prof.to_dataframe()     # the same as a pandas DataFrame
    print(prof.summary())   # a text table by event kind
    prof.timeline()         # a matplotlib Gantt chart, one row per thread/queue

Each event is a dict with ``kind`` (``enqueue_launch``, ``enqueue_upload``,
``enqueue_download``, ``create``, ``delete``, ``alloc``, ``free``,
``compute_construct``, ``wait``, ``update``, ``error``, …: a ``_start``/``_end``
pair becomes one event), ``start_ns``/``end_ns``/``duration_ns`` (since the
profile began), ``bytes``, ``var``, ``queue`` (None when synchronous),
``async``, ``thread``, ``device_type``, ``device_num``, ``file``, ``line``,
``kernel``, ``num_gangs``, ``num_workers``, ``vector_length``, ``construct``,
``implicit``, ``host_ptr``, ``device_ptr``, ``error``, ``error_code`` and
``complete`` (False when the start or end fell outside the profile).

On the shared-memory multicore device transfers move no bytes (the device
copy *is* the host array), so their events are short; they are still
recorded with their sizes, as on a discrete device.
"""

from __future__ import annotations

from typing import Optional

from . import _core

__all__ = ["profile", "Profile"]

COLUMNS = [
    "kind", "start_ns", "end_ns", "duration_ns", "thread", "queue", "async", "device_type", "device_num",
    "var", "bytes", "host_ptr", "device_ptr", "kernel", "num_gangs", "num_workers", "vector_length",
    "file", "line", "construct", "implicit", "error", "error_code", "complete",
]

# Colours for the timeline, by event kind (others get grey).
_COLORS = {
    "compute_construct": "#c6dbef",
    "enqueue_launch": "#2171b5",
    "enqueue_upload": "#238b45",
    "enqueue_download": "#d94801",
    "update": "#fdae6b",
    "enter_data": "#c7e9c0",
    "exit_data": "#fdd0a2",
    "wait": "#9e9ac8",
    "alloc": "#74c476",
    "create": "#41ab5d",
    "delete": "#fd8d3c",
    "free": "#e6550d",
    "device_init": "#bdbdbd",
    "error": "#cb181d",
}


def _need(module: str, what: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        pkg = module.split(".")[0]
        raise ImportError(f"Profile.{what}() needs {pkg}, which is not installed: pip install {pkg}") from None


class Profile:
    """The events recorded between ``start()`` and ``stop()`` (or in a ``with`` block)."""

    def __init__(self):
        self.events: list = []
        self.duration_ns: int = 0
        self._token: Optional[int] = None

    # --- recording ---------------------------------------------------------

    def start(self) -> "Profile":
        """Begin recording (profiles may nest; each sees the events of its own span)."""
        if self._token is not None:
            raise RuntimeError("this profile is already recording")
        self.events = []
        self._token = _core.profile_start()
        return self

    def stop(self) -> "Profile":
        """Stop recording and collect the events."""
        if self._token is None:
            raise RuntimeError("this profile is not recording")
        token, self._token = self._token, None
        self.events, self.duration_ns = _core.profile_stop(token)
        return self

    @property
    def recording(self) -> bool:
        """True between ``start()`` and ``stop()``."""
        return self._token is not None

    def __enter__(self) -> "Profile":
        return self.start()

    def __exit__(self, *exc) -> bool:
        self.stop()
        return False

    def __del__(self):
        # A profile dropped while recording must not leave the recorder on.
        if getattr(self, "_token", None) is not None:
            try:
                self.stop()
            except Exception:
                pass

    # --- views -------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self):
        return iter(self.events)

    def __repr__(self) -> str:
        state = "recording" if self.recording else f"{len(self.events)} events, {self.duration_ns / 1e6:.3f} ms"
        return f"<acc.Profile {state}>"

    def __str__(self) -> str:
        return self.summary()

    def select(self, kind: Optional[str] = None, **fields) -> list:
        """The events of ``kind`` (if given) whose other fields equal ``fields``."""
        return [e for e in self.events
                if (kind is None or e["kind"] == kind) and all(e.get(k) == v for k, v in fields.items())]

    def to_dataframe(self):
        """The events as a pandas DataFrame (one row per event, columns as in ``events``)."""
        pd = _need("pandas", "to_dataframe")
        return pd.DataFrame(self.events, columns=COLUMNS)

    def summary(self, by: str = "kind") -> str:
        """A text table grouped by ``by`` (``"kind"``, ``"var"``, ``"kernel"``, ``"file"``, …):
        count, total/mean/max time and bytes per group, longest total first."""
        header = f"{by:<28} {'count':>7} {'total ms':>10} {'mean us':>10} {'max us':>10} {'bytes':>14}"
        lines = [f"profile: {len(self.events)} events in {self.duration_ns / 1e6:.3f} ms", header, "-" * len(header)]
        for key, (n, total, mx, nbytes) in self._groups(by):
            name = "-" if key is None else str(key)
            if len(name) > 28:
                name = name[:25] + "..."
            lines.append(f"{name:<28} {n:>7} {total / 1e6:>10.3f} {total / n / 1e3:>10.2f} {mx / 1e3:>10.2f} {nbytes:>14}")
        return "\n".join(lines)

    def _groups(self, by: str) -> list:
        """[(key, [count, total ns, max ns, bytes])], longest total first."""
        groups: dict = {}
        for e in self.events:
            key = e.get(by)
            if by == "kind" and not key:
                continue
            g = groups.setdefault(key, [0, 0, 0, 0])
            g[0] += 1
            g[1] += e["duration_ns"]
            g[2] = max(g[2], e["duration_ns"])
            g[3] += e["bytes"]
        return sorted(groups.items(), key=lambda kv: (-kv[1][1], str(kv[0])))

    def _repr_html_(self) -> str:
        """In a notebook: the summary by kind as a table, then the timeline
        as inline SVG (when matplotlib is installed)."""
        import html

        if self.recording:
            return f"<p>{html.escape(repr(self))}</p>"
        out = [
            '<div class="accjit-profile">',
            f"<p><b>accjit profile</b>: {len(self.events)} events in {self.duration_ns / 1e6:.3f} ms</p>",
            '<table class="accjit-profile-summary"><tr><th>kind</th><th>count</th><th>total ms</th>'
            "<th>mean us</th><th>max us</th><th>bytes</th></tr>",
        ]
        for key, (n, total, mx, nbytes) in self._groups("kind"):
            out.append(
                f"<tr><td>{html.escape(str(key))}</td><td>{n}</td><td>{total / 1e6:.3f}</td>"
                f"<td>{total / n / 1e3:.2f}</td><td>{mx / 1e3:.2f}</td><td>{nbytes}</td></tr>"
            )
        out.append("</table>")
        if self.events:
            try:
                import io

                import matplotlib.pyplot as plt
            except ImportError:
                out.append("<p>(install matplotlib for the timeline)</p>")
            else:
                fig = self.timeline()
                buf = io.StringIO()
                fig.savefig(buf, format="svg")
                plt.close(fig)  # shown here, not again by the inline backend
                svg = buf.getvalue()
                out.append('<div class="accjit-timeline">' + svg[svg.find("<svg"):] + "</div>")
        out.append("</div>")
        return "\n".join(out)

    def rows(self) -> list:
        """The timeline's row labels: ``thread N`` for synchronous events, ``queue Q`` for async ones."""
        return sorted({_row(e) for e in self.events}, key=_row_order)

    def timeline(self, ax=None, kinds=None, title: Optional[str] = None):
        """A Gantt-style chart: one row per host thread / async queue, one bar per
        event coloured by kind (nested events stacked inside their parent's row,
        point events as ticks). Draws on ``ax`` if given; returns the figure."""
        plt = _need("matplotlib.pyplot", "timeline")
        from matplotlib.patches import Patch

        if ax is None:
            fig, ax = plt.subplots(figsize=(10, 1.2 + 0.7 * max(1, len(self.rows()))))
        else:
            fig = ax.figure
        events = [e for e in self.events if kinds is None or e["kind"] in kinds]
        rows = sorted({_row(e) for e in events}, key=_row_order)
        y_of = {r: i for i, r in enumerate(rows)}
        depth = _nesting(events)
        max_depth = max(depth.values(), default=0) + 1
        lane = 0.8 / max_depth
        span = max((e["end_ns"] for e in events), default=0) or 1
        seen = {}
        for i, e in enumerate(events):
            y = y_of[_row(e)] - 0.4 + depth[i] * lane
            color = _COLORS.get(e["kind"], "#969696")
            x0 = e["start_ns"] / 1e3
            if e["duration_ns"] > 0:
                ax.broken_barh([(x0, e["duration_ns"] / 1e3)], (y, lane * 0.9), facecolors=color)
                if e["kernel"] and e["kind"] == "enqueue_launch" and e["duration_ns"] > 0.06 * span:
                    ax.text(x0 + e["duration_ns"] / 2e3, y + lane * 0.45, e["kernel"], ha="center", va="center",
                            fontsize="x-small", color="white", clip_on=True)
            else:
                ax.vlines(x0, y, y + lane * 0.9, colors=color, linewidth=1.5)
            seen.setdefault(e["kind"], color)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels(rows)
        ax.set_ylim(-0.6, max(len(rows), 1) - 0.4)
        ax.invert_yaxis()
        ax.set_xlabel("time since profile start (µs)")
        ax.set_title(title or f"accjit profile: {len(events)} events, {self.duration_ns / 1e6:.3f} ms")
        if seen:
            ax.legend(handles=[Patch(color=c, label=k) for k, c in seen.items()], loc="upper left",
                      bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
        fig.tight_layout()
        return fig


def _row(e: dict) -> str:
    q = e.get("queue")
    if q is None:
        return f"thread {e['thread']}"
    return "queue noval" if q == -1 else f"queue {q}"


def _row_order(r: str):
    kind, _, n = r.partition(" ")
    return (kind != "thread", int(n) if n.lstrip("-").isdigit() else -1, n)


def _nesting(events: list) -> dict:
    """Index → how many events of the same row enclose it (for stacking bars)."""
    depth = {}
    open_by_row: dict = {}
    order = sorted(range(len(events)), key=lambda i: (events[i]["start_ns"], -events[i]["duration_ns"]))
    for i in order:
        e = events[i]
        stack = open_by_row.setdefault(_row(e), [])
        stack[:] = [end for end in stack if end > e["start_ns"]]
        depth[i] = len(stack)
        if e["duration_ns"] > 0:
            stack.append(e["end_ns"])
    return depth


def profile() -> Profile:
    """A new profile; use as ``with acc.profile() as prof:`` (or ``prof = acc.profile().start()``
    … ``prof.stop()``)."""
    return Profile()
