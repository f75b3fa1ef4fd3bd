//! Profiling sessions for `acc.profile()`: `_core.profile_start()` /
//! `_core.profile_stop(token)`.
//!
//! Owns the Rust side of Python profiling: a recorder installed with
//! `accjit_runtime::set_recorder` while at least one session is open, the
//! event buffer it fills, and the conversion of buffered events into records
//! handed to Python when a session ends.
//!
//! The hot path (one runtime event) is cheap: the recorder takes one mutex,
//! interns the event's strings (variable, kernel, location; a hash lookup,
//! an allocation only the first time a string is seen) and pushes a plain
//! struct. Nothing touches Python until the session ends.
//!
//! Records: each `_start`/`_end` pair of one thread becomes one record with
//! a start and an end time (`kind` without the suffix: `enqueue_launch`,
//! `enqueue_upload`, `wait`, …); point events (`create`, `alloc`, `error`, …)
//! have start = end. Times are nanoseconds since the session started. Sessions
//! nest: each sees the events between its own start and stop markers (events
//! the runtime emits with kind `acc_ev_none`, which reach only recorders).

use accjit_runtime::consts::*;
use accjit_runtime::prof::{self, Event};
use accjit_runtime::DeviceType;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};

/// One buffered runtime event; strings are indices into [`Buffer::strings`] (0: none).
#[derive(Clone, Debug, Default, PartialEq)]
struct Raw {
    kind: i32,
    time: u64,
    thread: u32,
    construct: i32,
    implicit: bool,
    device_type: i32,
    device_num: i32,
    async_: i64,
    var: u32,
    bytes: usize,
    host_ptr: usize,
    device_ptr: usize,
    kernel: u32,
    num_gangs: usize,
    num_workers: usize,
    vector_length: usize,
    loc: u32,
    error: u32,
    error_code: i32,
}

struct Buffer {
    events: Vec<Raw>,
    strings: Vec<String>,
    index: HashMap<String, u32>,
}

impl Buffer {
    fn new() -> Buffer {
        Buffer { events: Vec::new(), strings: vec![String::new()], index: HashMap::new() }
    }

    fn intern(&mut self, s: Option<&str>) -> u32 {
        let Some(s) = s else { return 0 };
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        let i = self.strings.len() as u32;
        self.strings.push(s.to_string());
        self.index.insert(s.to_string(), i);
        i
    }

    fn raw(&mut self, e: &Event, thread: u32) -> Raw {
        let error = match e.error {
            Some(err) => self.intern(Some(&err.to_string())),
            None => 0,
        };
        Raw {
            kind: e.kind,
            time: e.time_ns,
            thread,
            construct: e.construct,
            implicit: e.implicit,
            device_type: e.device_type,
            device_num: e.device_num,
            async_: e.async_,
            var: self.intern(e.var),
            bytes: e.bytes,
            host_ptr: e.host_ptr,
            device_ptr: e.device_ptr,
            kernel: self.intern(e.kernel),
            num_gangs: e.num_gangs,
            num_workers: e.num_workers,
            vector_length: e.vector_length,
            loc: self.intern(e.loc),
            error,
            error_code: e.error.map_or(0, |err| err.code),
        }
    }

    fn str(&self, i: u32) -> Option<&str> {
        (i != 0).then(|| self.strings.get(i as usize).map(String::as_str)).flatten()
    }
}

static BUFFER: Mutex<Option<Buffer>> = Mutex::new(None);

/// Serialises this crate's tests that make runtime events (they would show up in a session).
#[cfg(test)]
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

/// Open session tokens and the next token.
struct Sessions {
    open: Vec<u64>,
    next: u64,
}

static SESSIONS: Mutex<Sessions> = Mutex::new(Sessions { open: Vec::new(), next: 1 });

fn buffer() -> MutexGuard<'static, Option<Buffer>> {
    BUFFER.lock().unwrap_or_else(|p| p.into_inner())
}

fn sessions() -> MutexGuard<'static, Sessions> {
    SESSIONS.lock().unwrap_or_else(|p| p.into_inner())
}

thread_local! {
    static THREAD: Cell<u32> = const { Cell::new(u32::MAX) };
}

/// A small number per OS thread, in order of first event.
fn thread_id() -> u32 {
    THREAD.with(|t| {
        if t.get() == u32::MAX {
            static NEXT: AtomicU32 = AtomicU32::new(0);
            t.set(NEXT.fetch_add(1, Relaxed));
        }
        t.get()
    })
}

/// The recorder: buffer one event.
fn record(e: &Event) {
    let thread = thread_id();
    if let Some(b) = buffer().as_mut() {
        let r = b.raw(e, thread);
        b.events.push(r);
    }
}

/// Marker events delimit sessions: kind none, this variable text, the token in `host_ptr`.
const MARKER: &str = "\u{0}accjit.profile";
const MARK_START: usize = 1;
const MARK_STOP: usize = 2;

fn mark(token: u64, which: usize) {
    prof::emit(&Event { kind: acc_ev_none, var: Some(MARKER), host_ptr: token as usize, device_ptr: which, ..Event::default() });
}

fn is_marker(b: &Buffer, r: &Raw) -> bool {
    r.kind == acc_ev_none && b.str(r.var) == Some(MARKER)
}

fn find_marker(b: &Buffer, token: u64, which: usize) -> Option<usize> {
    b.events.iter().position(|r| is_marker(b, r) && r.host_ptr == token as usize && r.device_ptr == which)
}

/// Opens a session; returns its token.
fn start() -> u64 {
    let token = {
        let mut s = sessions();
        if s.open.is_empty() {
            *buffer() = Some(Buffer::new());
            prof::set_recorder(Some(Box::new(record)));
        }
        let t = s.next;
        s.next += 1;
        s.open.push(t);
        t
    };
    mark(token, MARK_START);
    token
}

/// A finished session: its records and length.
struct Finished {
    records: Vec<Record>,
    strings: Vec<String>,
    duration_ns: u64,
}

/// Closes session `token`; None when it is not open.
fn stop(token: u64) -> Option<Finished> {
    mark(token, MARK_STOP);
    let mut s = sessions();
    let pos = s.open.iter().position(|&t| t == token)?;
    s.open.remove(pos);
    let last = s.open.is_empty();
    let finished = {
        let mut g = buffer();
        let b = g.as_mut()?;
        let i0 = find_marker(b, token, MARK_START)?;
        let i1 = find_marker(b, token, MARK_STOP).unwrap_or(b.events.len().saturating_sub(1));
        let (t0, t1) = (b.events[i0].time, b.events[i1].time);
        let evs: Vec<Raw> = b.events[i0 + 1..i1.max(i0 + 1)].iter().filter(|r| !is_marker(b, r)).cloned().collect();
        let records = pair(&evs, t0);
        let strings = b.strings.clone();
        if last {
            *g = None;
        }
        Finished { records, strings, duration_ns: t1.saturating_sub(t0) }
    };
    if last {
        prof::set_recorder(None);
    }
    Some(finished)
}

// --- pairing -------------------------------------------------------------------

/// One profile record (a paired interval or a point event).
#[derive(Clone, Debug, PartialEq)]
struct Record {
    /// The event kind without `_start`/`_end`.
    kind: &'static str,
    start: u64,
    end: u64,
    /// False for a `_start` whose `_end` never came (or the reverse).
    complete: bool,
    raw: Raw,
}

fn base_name(kind: i32) -> (&'static str, i32) {
    let n = event_name(kind);
    if let Some(b) = n.strip_suffix("_start") {
        (b, 1)
    } else if let Some(b) = n.strip_suffix("_end") {
        (b, -1)
    } else {
        (n, 0)
    }
}

/// Pairs `_start`/`_end` events per thread (innermost open start of the same
/// kind), rebases times on `t0`, numbers threads by first appearance and
/// sorts by start time.
fn pair(evs: &[Raw], t0: u64) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::with_capacity(evs.len());
    let mut open: HashMap<u32, Vec<usize>> = HashMap::new();
    let mut threads: HashMap<u32, u32> = HashMap::new();
    for e in evs {
        let n = threads.len() as u32;
        let thread = *threads.entry(e.thread).or_insert(n);
        let t = e.time.saturating_sub(t0);
        let mut raw = e.clone();
        raw.thread = thread;
        let (kind, dir) = base_name(e.kind);
        match dir {
            1 => {
                open.entry(thread).or_default().push(out.len());
                out.push(Record { kind, start: t, end: t, complete: false, raw });
            }
            -1 => {
                let stack = open.entry(thread).or_default();
                match stack.iter().rposition(|&i| out[i].kind == kind) {
                    Some(p) => {
                        let i = stack.remove(p);
                        let r = &mut out[i];
                        r.end = t.max(r.start);
                        r.complete = true;
                        fill(&mut r.raw, e);
                    }
                    None => out.push(Record { kind, start: t, end: t, complete: false, raw }),
                }
            }
            _ => out.push(Record { kind, start: t, end: t, complete: true, raw }),
        }
    }
    out.sort_by_key(|r| r.start);
    out
}

/// Fields the start event left empty, taken from the end event.
fn fill(r: &mut Raw, e: &Raw) {
    if r.var == 0 {
        r.var = e.var;
    }
    if r.kernel == 0 {
        r.kernel = e.kernel;
    }
    if r.loc == 0 {
        r.loc = e.loc;
    }
    if r.bytes == 0 {
        r.bytes = e.bytes;
    }
    if r.device_ptr == 0 {
        r.device_ptr = e.device_ptr;
    }
    if r.num_gangs == 0 {
        r.num_gangs = e.num_gangs;
    }
}

fn construct_name(c: i32) -> &'static str {
    const NAMES: [&str; 17] = [
        "parallel",
        "kernels",
        "loop",
        "data",
        "enter_data",
        "exit_data",
        "host_data",
        "atomic",
        "declare",
        "init",
        "shutdown",
        "set",
        "update",
        "routine",
        "wait",
        "runtime_api",
        "serial",
    ];
    usize::try_from(c).ok().and_then(|i| NAMES.get(i)).copied().unwrap_or("unknown")
}

/// (file, line) of `"file:LINE"`.
fn split_loc(loc: &str) -> (&str, Option<i64>) {
    match loc.rsplit_once(':') {
        Some((f, l)) => match l.trim().parse() {
            Ok(n) => (f, Some(n)),
            Err(_) => (loc, None),
        },
        None => (loc, None),
    }
}

fn to_dict<'py>(py: Python<'py>, r: &Record, strings: &[String]) -> PyResult<Bound<'py, PyDict>> {
    let s = |i: u32| (i != 0).then(|| strings.get(i as usize).map(String::as_str)).flatten();
    let e = &r.raw;
    let d = PyDict::new(py);
    d.set_item("kind", r.kind)?;
    d.set_item("start_ns", r.start)?;
    d.set_item("end_ns", r.end)?;
    d.set_item("duration_ns", r.end - r.start)?;
    d.set_item("thread", e.thread)?;
    d.set_item("queue", (e.async_ != acc_async_sync).then_some(e.async_))?;
    d.set_item("async", e.async_)?;
    d.set_item("device_type", DeviceType::from_acc(e.device_type).map(DeviceType::name))?;
    d.set_item("device_num", e.device_num)?;
    d.set_item("var", s(e.var))?;
    d.set_item("bytes", e.bytes)?;
    d.set_item("host_ptr", e.host_ptr)?;
    d.set_item("device_ptr", e.device_ptr)?;
    d.set_item("kernel", s(e.kernel))?;
    d.set_item("num_gangs", e.num_gangs)?;
    d.set_item("num_workers", e.num_workers)?;
    d.set_item("vector_length", e.vector_length)?;
    let (file, line) = match s(e.loc) {
        // Launches may carry the kernel's name where a location belongs.
        Some(l) if s(e.kernel) == Some(l) => (None, None),
        Some(l) => {
            let (f, n) = split_loc(l);
            (Some(f), n)
        }
        None => (None, None),
    };
    d.set_item("file", file)?;
    d.set_item("line", line)?;
    d.set_item("construct", construct_name(e.construct))?;
    d.set_item("implicit", e.implicit)?;
    d.set_item("error", s(e.error))?;
    d.set_item("error_code", (e.error_code != 0).then_some(e.error_code))?;
    d.set_item("complete", r.complete)?;
    Ok(d)
}

// --- Python entry points ------------------------------------------------------------

/// profile_start() -> token: start recording every runtime event.
#[pyfunction]
fn profile_start() -> PyResult<u64> {
    crate::guard(|| Ok(start()))
}

/// profile_stop(token) -> (events, duration_ns): stop the session, returning its records as dicts.
#[pyfunction]
fn profile_stop(py: Python<'_>, token: u64) -> PyResult<(Bound<'_, PyList>, u64)> {
    crate::guard(|| {
        let f = py.detach(|| stop(token)).ok_or_else(|| PyRuntimeError::new_err(format!("profiling session {token} is not active")))?;
        let out = PyList::empty(py);
        for r in &f.records {
            out.append(to_dict(py, r, &f.strings)?)?;
        }
        Ok((out, f.duration_ns))
    })
}

/// profile_active() -> number of open sessions.
#[pyfunction]
fn profile_active() -> usize {
    sessions().open.len()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(profile_start, m)?)?;
    m.add_function(wrap_pyfunction!(profile_stop, m)?)?;
    m.add_function(wrap_pyfunction!(profile_active, m)?)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(kind: i32, time: u64, thread: u32) -> Raw {
        Raw { kind, time, thread, async_: acc_async_sync, ..Raw::default() }
    }

    #[test]
    fn pairs_nested_starts_and_ends_per_thread() {
        let evs = vec![
            raw(acc_ev_compute_construct_start, 100, 7),
            raw(acc_ev_enqueue_launch_start, 110, 7),
            raw(acc_ev_enqueue_upload_start, 115, 9),
            Raw { num_gangs: 4, ..raw(acc_ev_enqueue_launch_end, 150, 7) },
            raw(acc_ev_compute_construct_end, 160, 7),
            Raw { bytes: 80, ..raw(acc_ev_create, 161, 9) },
            raw(acc_ev_enqueue_upload_end, 170, 9),
            raw(acc_ev_wait_end, 180, 7),
            raw(acc_ev_enqueue_download_start, 190, 7),
        ];
        let r = pair(&evs, 100);
        let kinds: Vec<_> = r.iter().map(|r| (r.kind, r.start, r.end, r.complete, r.raw.thread)).collect();
        assert_eq!(
            kinds,
            vec![
                ("compute_construct", 0, 60, true, 0),
                ("enqueue_launch", 10, 50, true, 0),
                ("enqueue_upload", 15, 70, true, 1),
                ("create", 61, 61, true, 1),
                ("wait", 80, 80, false, 0),
                ("enqueue_download", 90, 90, false, 0),
            ]
        );
        // The end event's fields fill what the start left empty.
        assert_eq!(r[1].raw.num_gangs, 4);
        assert_eq!(r[3].raw.bytes, 80);
    }

    #[test]
    fn names_and_locations() {
        assert_eq!(base_name(acc_ev_enqueue_upload_start), ("enqueue_upload", 1));
        assert_eq!(base_name(acc_ev_wait_end), ("wait", -1));
        assert_eq!(base_name(acc_ev_alloc), ("alloc", 0));
        assert_eq!(construct_name(acc_construct_runtime_api), "runtime_api");
        assert_eq!(construct_name(99), "unknown");
        assert_eq!(split_loc("prog.c:12"), ("prog.c", Some(12)));
        assert_eq!(split_loc("<stdin>"), ("<stdin>", None));
    }

    #[test]
    fn interned_strings_are_shared() {
        let mut b = Buffer::new();
        let a = b.intern(Some("x[0:n]"));
        assert_eq!(b.intern(Some("x[0:n]")), a);
        assert_ne!(b.intern(Some("y")), a);
        assert_eq!(b.intern(None), 0);
        assert_eq!(b.str(a), Some("x[0:n]"));
        assert_eq!(b.str(0), None);
    }

    #[test]
    fn sessions_record_runtime_events_and_nest() {
        let _g = TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let buf = vec![0u8; 256];
        let h = buf.as_ptr() as usize;
        let outer = start();
        accjit_runtime::api::copyin(h, 256, acc_async_sync).unwrap();
        let inner = start();
        accjit_runtime::api::delete(h, 256, false, acc_async_sync).unwrap();
        let fi = stop(inner).unwrap();
        assert!(prof::active(), "the outer session still listens");
        let fo = stop(outer).unwrap();
        assert_eq!(profile_active(), 0);
        let kinds = |f: &Finished| f.records.iter().filter(|r| r.raw.host_ptr == h).map(|r| r.kind).collect::<Vec<_>>();
        assert_eq!(kinds(&fi), vec!["delete", "free"]);
        assert_eq!(kinds(&fo), vec!["alloc", "create", "enqueue_upload", "delete", "free"]);
        assert!(fo.records.iter().all(|r| r.raw.bytes == 256 || r.kind == "free"));
        assert!(fo.duration_ns >= fi.duration_ns);
        assert!(stop(outer).is_none(), "a closed session cannot be stopped twice");
    }
}
