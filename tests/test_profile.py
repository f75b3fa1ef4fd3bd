"""Profiling from Python: `with acc.profile() as prof:` records runtime events
(data, launches, waits, errors) from kernels and the data API; DataFrame,
summary and timeline views; notebooks/02_profiling.ipynb runs."""

import json
from pathlib import Path

import numpy as np
import pytest

import accjit as acc

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lib():
    return acc.c(r"""
    void scale(int n, double s, double *a) {
        #pragma acc parallel loop present(a[0:n]) num_gangs(2)
        for (int i = 0; i < n; i++) a[i] *= s;
    }
    void scale_async(int n, double s, double *a) {
        #pragma acc parallel loop present(a[0:n]) async(2)
        for (int i = 0; i < n; i++) a[i] *= s;
    }
    double total(int n, const double *a) {
        double s = 0.0;
        #pragma acc parallel loop reduction(+:s) copyin(a[0:n])
        for (int i = 0; i < n; i++) s += a[i];
        return s;
    }
    """, name="prof_kernels.c")


def kinds(prof):
    # device_init appears once per process, in whichever test first uses the device
    return [e["kind"] for e in prof.events if e["kind"] != "device_init"]


def test_records_data_api_events_with_names_sizes_and_locations():
    x = np.arange(1000.0)
    with acc.profile() as prof:
        acc.copyin(x, name="x")
        acc.update_self(x[10:20])
        acc.delete(x)
    assert kinds(prof) == ["alloc", "create", "enqueue_upload", "enqueue_download", "delete", "free"]
    up = prof.select("enqueue_upload")[0]
    assert up["var"] == "x" and up["bytes"] == 8000 and up["host_ptr"] == x.ctypes.data
    assert up["file"] == "test_profile.py" and isinstance(up["line"], int)
    assert up["queue"] is None and up["async"] == -2
    assert up["device_type"] == acc.get_device_type() and up["device_num"] == 0
    assert up["construct"] == "runtime_api" and up["complete"]
    down = prof.select("enqueue_download")[0]
    assert down["bytes"] == 80 and down["var"].startswith("float64[10] at ")
    assert down["line"] == up["line"] + 1
    for e in prof.events:
        assert 0 <= e["start_ns"] <= e["end_ns"] <= prof.duration_ns
        assert e["duration_ns"] == e["end_ns"] - e["start_ns"]
    starts = [e["start_ns"] for e in prof.events]
    assert starts == sorted(starts)


def test_records_kernel_launches_with_gangs_and_source(lib, rng):
    x = rng.random(4096)
    with acc.profile() as prof:
        with acc.data(copy={"x": x}):
            lib.scale(x.size, 2.0, x)
        s = lib.total(x.size, x)
    assert s == pytest.approx(x.sum())
    launches = prof.select("enqueue_launch")
    assert [e["kernel"] for e in launches] == ["scale_parallel_0", "total_parallel_0"]
    assert launches[0]["num_gangs"] == 2
    assert all(e["duration_ns"] > 0 and e["complete"] for e in launches)
    cc = prof.select("compute_construct")
    assert len(cc) == 2 and cc[0]["start_ns"] <= launches[0]["start_ns"] <= launches[0]["end_ns"] <= cc[0]["end_ns"]
    # The acc.data region shows as enter/exit data with the clause text and Python location.
    enter = prof.select("enter_data", file="test_profile.py")
    assert [e["var"] for e in enter] == ["copy(x)"] and enter[0]["construct"] == "data"
    assert [e["var"] for e in prof.select("exit_data", file="test_profile.py")] == ["copy(x)"]
    # Clauses inside the C code carry the C source location.
    c_side = [e for e in prof.events if e["file"] == "prof_kernels.c"]
    assert c_side and all(e["line"] for e in c_side)
    upload_a = [e for e in prof.select("enqueue_upload") if e["var"] == "a[0:n]"]
    assert upload_a and upload_a[0]["bytes"] == x.nbytes


def test_async_events_carry_their_queue(lib):
    x = np.ones(10000)
    with acc.profile() as prof:
        acc.copyin(x, async_=1)
        acc.wait(1)
        lib.scale_async(x.size, 2.0, x)
        acc.wait()
        acc.copyout(x, async_=1)
        acc.wait(1)
    np.testing.assert_array_equal(x, 2.0)
    launch = prof.select("enqueue_launch")[0]
    assert launch["queue"] == 2 and launch["async"] == 2
    assert prof.select("enqueue_upload")[0]["queue"] == 1
    waits = prof.select("wait")
    assert len(waits) >= 3 and all(w["complete"] for w in waits)
    assert {"queue 1", "queue 2"} <= set(prof.rows())


def test_errors_are_recorded():
    x = np.zeros(5)
    with acc.profile() as prof:
        with pytest.raises(acc.NotPresentError):
            acc.update_self(x, name="x")
    (err,) = prof.select("error")
    assert err["error_code"] == 10 and "not present" in err["error"]
    assert err["var"] == "x" and err["bytes"] == x.nbytes and err["host_ptr"] == x.ctypes.data
    assert err["file"] == "test_profile.py" and err["line"]
    assert not prof.select("enqueue_download")  # the failing call moved nothing


def test_nothing_recorded_outside_a_profile_and_sessions_nest():
    x = np.zeros(100)
    acc.copyin(x)  # before: not recorded anywhere
    outer = acc.profile().start()
    acc.update_device(x)
    with acc.profile() as inner:
        acc.update_self(x)
    acc.delete(x)
    outer.stop()
    assert kinds(inner) == ["enqueue_download"]
    assert kinds(outer) == ["enqueue_upload", "enqueue_download", "delete", "free"]
    assert outer.duration_ns >= inner.duration_ns
    with pytest.raises(RuntimeError, match="not recording"):
        outer.stop()
    assert acc._core.profile_active() == 0
    # After the last session the recorder is off: a new profile starts empty.
    with acc.profile() as again:
        pass
    assert again.events == [] and len(again) == 0


def test_profile_collects_on_exception():
    x = np.zeros(8)
    with pytest.raises(ZeroDivisionError):
        with acc.profile() as prof:
            acc.copyin(x)
            acc.delete(x)
            1 / 0
    assert kinds(prof) == ["alloc", "create", "enqueue_upload", "delete", "free"]
    assert not prof.recording and acc._core.profile_active() == 0


def test_many_events_from_threads():
    import threading

    arrays = [np.zeros(64) for _ in range(4)]

    def work(a):
        for _ in range(250):
            acc.copyin(a)
            acc.delete(a)

    with acc.profile() as prof:
        ts = [threading.Thread(target=work, args=(a,)) for a in arrays]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    assert len(prof.select("enqueue_upload")) == 1000
    assert len({e["thread"] for e in prof.events}) == 4
    assert all(e["complete"] for e in prof.events)


def test_summary_table(lib):
    x = np.ones(1000)
    with acc.profile() as prof:
        for _ in range(3):
            acc.copyin(x, name="x")
            lib.scale(x.size, 1.0, x)
            acc.delete(x)
    text = prof.summary()
    lines = text.splitlines()
    assert lines[0].startswith(f"profile: {len(prof.events)} events")
    assert lines[1].split()[:2] == ["kind", "count"]
    rows = {ln.split()[0]: ln.split() for ln in lines[3:]}
    assert rows["enqueue_launch"][1] == "3"
    assert rows["enqueue_upload"][1] == "3" and rows["enqueue_upload"][-1] == str(3 * x.nbytes)
    # longest total first
    totals = [float(ln.split()[2]) for ln in lines[3:]]
    assert totals == sorted(totals, reverse=True)
    by_var = prof.summary(by="var")
    assert any(ln.split()[0] == "x" and ln.split()[1] == "9" for ln in by_var.splitlines()[3:])
    assert str(prof) == text and "events" in repr(prof)


def test_dataframe():
    pd = pytest.importorskip("pandas")
    x = np.ones(32)
    with acc.profile() as prof:
        acc.copyin(x, name="x")
        acc.delete(x)
    df = prof.to_dataframe()
    assert isinstance(df, pd.DataFrame)
    assert len(df) == len(prof.events) == 5
    assert list(df["kind"]) == kinds(prof)
    assert {"kind", "start_ns", "end_ns", "bytes", "var", "queue", "file", "line", "kernel", "num_gangs"} <= set(df.columns)
    assert df.loc[df.kind == "enqueue_upload", "bytes"].item() == 256
    assert acc.profile().to_dataframe().empty


def test_missing_pandas_gives_a_clear_error(monkeypatch):
    import builtins

    real = builtins.__import__

    def fake(name, *a, **k):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("no pandas")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", fake)
    monkeypatch.delitem(__import__("sys").modules, "pandas", raising=False)
    with pytest.raises(ImportError, match="pip install pandas"):
        acc.profile().to_dataframe()


def test_timeline_plot(lib):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.ones(20000)
    with acc.profile() as prof:
        with acc.data(copy=[x]):
            lib.scale(x.size, 2.0, x)
            lib.scale_async(x.size, 2.0, x)
            acc.wait(2)
    fig = prof.timeline()
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == prof.rows() and "queue 2" in labels and any(r.startswith("thread") for r in labels)
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "enqueue_launch" in legend and "wait" in legend
    assert len(ax.collections) >= len([e for e in prof.events])  # one artist per event
    plt.close(fig)
    # Drawing onto a given axes, only some kinds.
    fig2, ax2 = plt.subplots()
    assert prof.timeline(ax=ax2, kinds={"enqueue_launch"}) is fig2
    assert [t.get_text() for t in ax2.get_legend().get_texts()] == ["enqueue_launch"]
    plt.close(fig2)


def test_notebook_02_executes():
    pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    book = ROOT / "notebooks" / "02_profiling.ipynb"
    nb = json.loads(book.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert code, "the notebook has code cells"
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code), "commit with outputs stripped"
    env = {"__name__": "__notebook__"}
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{book.name}[cell {i}]", "exec"), env)
    prof = env["prof"]
    assert prof.select("enqueue_launch") and env["df"].shape[0] == len(prof.events)
    assert env["fig"].axes
    import matplotlib.pyplot as plt

    plt.close("all")
