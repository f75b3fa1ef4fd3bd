//! The profiling and error-callback interface (spec chapter 5).
//!
//! - The C structs passed to tools (`acc_prof_info`, `acc_event_info` and
//!   its members, `acc_api_info`) with GCC's `acc_prof.h` layout, plus
//!   `acc_error_event_info` (accjit's layout for `acc_ev_error`).
//! - Registration: `acc_prof_register`/`acc_prof_unregister` (also spelled
//!   `acc_callback_register`/`_unregister` and `acc_register`/`_unregister`)
//!   with the §5.4 rules: per-event lists, new callbacks at the tail, `_end`
//!   events dispatched tail→head, a refcount per entry (one call per event
//!   however often registered), `acc_toggle` and `acc_toggle_per_thread`.
//! - Tools libraries: `ACC_PROFLIB` is `dlopen`ed and its
//!   `acc_register_library` called; without it a preloaded
//!   `acc_register_library` (LD_PRELOAD) is looked up and called.
//! - A Rust-side recorder ([`set_recorder`]) that sees every event as an
//!   [`Event`] (the Python `acc.profile()` uses it).
//!
//! The runtime calls [`active`] (one relaxed atomic load) before building
//! any event, so nothing is paid when nobody listens. Callbacks run without
//! runtime locks held, so they may call `acc_*` routines and (un)register.

use crate::consts::*;
use crate::error::AccError;
use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Instant;

// --- C structs ---------------------------------------------------------------

#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_prof_info {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub version: c_int,
    pub device_type: c_int,
    pub device_number: c_int,
    pub thread_id: c_int,
    pub async_: isize,
    pub async_queue: isize,
    pub src_file: *const c_char,
    pub func_name: *const c_char,
    pub line_no: c_int,
    pub end_line_no: c_int,
    pub func_line_no: c_int,
    pub func_end_line_no: c_int,
}

#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_data_event_info {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub var_name: *const c_char,
    pub bytes: usize,
    pub host_ptr: *const c_void,
    pub device_ptr: *const c_void,
}

#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_launch_event_info {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub kernel_name: *const c_char,
    pub num_gangs: usize,
    pub num_workers: usize,
    pub vector_length: usize,
}

#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_other_event_info {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
}

/// `acc_ev_error` payload: the `acc_other_event_info` header, then the
/// `acc_error_*` code, the message and a device-runtime value (0).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_error_event_info {
    pub event_type: c_int,
    pub valid_bytes: c_int,
    pub parent_construct: c_int,
    pub implicit: c_int,
    pub tool_info: *mut c_void,
    pub error_code: c_int,
    pub error_message: *const c_char,
    pub runtime_info: usize,
}

#[allow(non_camel_case_types)]
#[repr(C)]
pub union acc_event_info {
    pub event_type: c_int,
    pub data_event: acc_data_event_info,
    pub launch_event: acc_launch_event_info,
    pub other_event: acc_other_event_info,
    pub error_event: acc_error_event_info,
}

#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy)]
pub struct acc_api_info {
    pub device_api: c_int,
    pub valid_bytes: c_int,
    pub device_type: c_int,
    pub vendor: c_int,
    pub device_handle: *const c_void,
    pub context_handle: *const c_void,
    pub async_handle: *const c_void,
}

#[allow(non_camel_case_types)]
pub type acc_prof_callback = Option<unsafe extern "C" fn(*mut acc_prof_info, *mut acc_event_info, *mut acc_api_info)>;
#[allow(non_camel_case_types)]
pub type acc_prof_reg = unsafe extern "C" fn(c_int, acc_prof_callback, c_int);
#[allow(non_camel_case_types)]
pub type acc_query_fn = Option<unsafe extern "C" fn()>;
#[allow(non_camel_case_types)]
pub type acc_prof_lookup_func = unsafe extern "C" fn(*const c_char) -> acc_query_fn;

// --- the Rust-side event ---------------------------------------------------

/// One profiling event as the runtime produces it.
#[derive(Clone, Debug)]
pub struct Event<'a> {
    /// `acc_ev_*`.
    pub kind: i32,
    /// `acc_construct_*` that caused it.
    pub construct: i32,
    /// Generated implicitly (implicit data, implicit waits).
    pub implicit: bool,
    pub device_type: i32,
    pub device_num: i32,
    /// The async argument (`acc_async_sync` when synchronous).
    pub async_: i64,
    pub var: Option<&'a str>,
    pub bytes: usize,
    pub host_ptr: usize,
    pub device_ptr: usize,
    pub kernel: Option<&'a str>,
    pub num_gangs: usize,
    pub num_workers: usize,
    pub vector_length: usize,
    /// `"file.c:LINE"`.
    pub loc: Option<&'a str>,
    pub error: Option<&'a AccError>,
    /// For an `_end` event: what the tools stored in the `_start` event.
    pub tool_info: usize,
    /// Nanoseconds since the runtime started (filled by [`emit`]).
    pub time_ns: u64,
}

impl Default for Event<'_> {
    fn default() -> Self {
        Event {
            kind: acc_ev_none,
            construct: acc_construct_runtime_api,
            implicit: false,
            device_type: acc_device_none,
            device_num: 0,
            async_: acc_async_sync,
            var: None,
            bytes: 0,
            host_ptr: 0,
            device_ptr: 0,
            kernel: None,
            num_gangs: 0,
            num_workers: 0,
            vector_length: 0,
            loc: None,
            error: None,
            tool_info: 0,
            time_ns: 0,
        }
    }
}

impl Event<'_> {
    /// The event kind's name (`"enqueue_launch_start"`).
    pub fn name(&self) -> &'static str {
        event_name(self.kind)
    }
    /// (file, line) from `loc`.
    pub fn src(&self) -> Option<(&str, i32)> {
        let loc = self.loc?;
        match loc.rsplit_once(':') {
            Some((f, l)) => Some((f, l.trim().parse().unwrap_or(0))),
            None => Some((loc, 0)),
        }
    }
}

/// A Rust-side listener of every event.
pub type Recorder = Box<dyn Fn(&Event) + Send + Sync>;

// --- registration ------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
struct CbEntry {
    cb: usize,
    refs: u32,
    enabled: bool,
}

const NEV: usize = acc_ev_last as usize;
static ACTIVE: AtomicBool = AtomicBool::new(false);
static REG: Mutex<Vec<Vec<CbEntry>>> = Mutex::new(Vec::new());
static RECORDER: RwLock<Option<Arc<Recorder>>> = RwLock::new(None);

thread_local! {
    static OFF_HERE: RefCell<HashSet<(i32, usize)>> = RefCell::new(HashSet::new());
    static THREAD_ID: i32 = { static NEXT: AtomicI32 = AtomicI32::new(0); NEXT.fetch_add(1, Relaxed) };
}

/// True when some callback or a recorder listens (the fast-path test).
#[inline]
pub fn active() -> bool {
    ACTIVE.load(Relaxed)
}

fn reg() -> std::sync::MutexGuard<'static, Vec<Vec<CbEntry>>> {
    let mut g = REG.lock().unwrap_or_else(|p| p.into_inner());
    if g.is_empty() {
        g.resize(NEV, Vec::new());
    }
    g
}

fn refresh_active(g: &[Vec<CbEntry>]) {
    let any_cb = g.iter().any(|l| l.iter().any(|e| e.enabled));
    let rec = RECORDER.read().map(|r| r.is_some()).unwrap_or(false);
    ACTIVE.store(any_cb || rec, Relaxed);
}

/// Installs (or removes) the Rust-side recorder.
pub fn set_recorder(r: Option<Recorder>) {
    *RECORDER.write().unwrap_or_else(|p| p.into_inner()) = r.map(Arc::new);
    refresh_active(&reg());
}

fn events_for(ev: i32) -> std::ops::Range<usize> {
    if ev == acc_ev_none {
        1..NEV
    } else if ev > 0 && (ev as usize) < NEV {
        ev as usize..ev as usize + 1
    } else {
        0..0
    }
}

/// `acc_prof_register` semantics.
pub fn register(ev: i32, cb: usize, info: i32) {
    let mut g = reg();
    for i in events_for(ev) {
        let list = &mut g[i];
        match info {
            acc_reg if cb != 0 => match list.iter_mut().find(|e| e.cb == cb) {
                Some(e) => e.refs += 1,
                None => list.push(CbEntry { cb, refs: 1, enabled: true }),
            },
            acc_toggle => list.iter_mut().filter(|e| cb == 0 || e.cb == cb).for_each(|e| e.enabled = true),
            acc_toggle_per_thread => OFF_HERE.with(|s| s.borrow_mut().retain(|(e, c)| !(*e == i as i32 && (cb == 0 || *c == cb)))),
            _ => {}
        }
    }
    refresh_active(&g);
}

/// `acc_prof_unregister` semantics.
pub fn unregister(ev: i32, cb: usize, info: i32) {
    let mut g = reg();
    for i in events_for(ev) {
        let list = &mut g[i];
        match info {
            acc_reg if cb != 0 => {
                if let Some(pos) = list.iter().position(|e| e.cb == cb) {
                    list[pos].refs -= 1;
                    if list[pos].refs == 0 {
                        list.remove(pos);
                    }
                }
            }
            acc_toggle => list.iter_mut().filter(|e| cb == 0 || e.cb == cb).for_each(|e| e.enabled = false),
            acc_toggle_per_thread => {
                let cbs: Vec<usize> = list.iter().filter(|e| cb == 0 || e.cb == cb).map(|e| e.cb).collect();
                OFF_HERE.with(|s| s.borrow_mut().extend(cbs.into_iter().map(|c| (i as i32, c))));
            }
            _ => {}
        }
    }
    refresh_active(&g);
}

fn is_end(ev: i32) -> bool {
    event_name(ev).ends_with("_end")
}

fn start_instant() -> Instant {
    static T0: OnceLock<Instant> = OnceLock::new();
    *T0.get_or_init(Instant::now)
}

/// Sends one event to the recorder and the registered callbacks; returns the
/// `tool_info` the callbacks left (to pass to the matching `_end` event).
pub fn emit(ev: &Event) -> usize {
    if !active() {
        return 0;
    }
    let mut ev = ev.clone();
    ev.time_ns = start_instant().elapsed().as_nanos() as u64;
    let rec = RECORDER.read().ok().and_then(|r| r.clone());
    if let Some(r) = rec {
        r(&ev);
    }
    let idx = ev.kind as usize;
    if idx == 0 || idx >= NEV {
        return ev.tool_info;
    }
    let mut cbs: Vec<usize> = {
        let g = reg();
        g[idx].iter().filter(|e| e.enabled).map(|e| e.cb).collect()
    };
    if cbs.is_empty() {
        return ev.tool_info;
    }
    if is_end(ev.kind) {
        cbs.reverse();
    }
    unsafe { call_c(&ev, &cbs) }
}

unsafe fn call_c(ev: &Event, cbs: &[usize]) -> usize {
    let (file, line) = ev.src().unwrap_or(("", 0));
    let c_file = CString::new(file).unwrap_or_default();
    let c_var = ev.var.and_then(|v| CString::new(v).ok());
    let c_kernel = ev.kernel.and_then(|k| CString::new(k).ok());
    let c_msg = ev.error.and_then(|e| CString::new(e.to_string()).ok());
    let mut pi = acc_prof_info {
        event_type: ev.kind,
        valid_bytes: std::mem::size_of::<acc_prof_info>() as c_int,
        version: OPENACC_VERSION,
        device_type: ev.device_type,
        device_number: ev.device_num,
        thread_id: THREAD_ID.with(|t| *t),
        async_: ev.async_ as isize,
        async_queue: ev.async_ as isize,
        src_file: if ev.loc.is_some() { c_file.as_ptr() } else { std::ptr::null() },
        func_name: std::ptr::null(),
        line_no: line,
        end_line_no: line,
        func_line_no: 0,
        func_end_line_no: 0,
    };
    let tool = ev.tool_info as *mut c_void;
    let other = acc_other_event_info {
        event_type: ev.kind,
        valid_bytes: std::mem::size_of::<acc_other_event_info>() as c_int,
        parent_construct: ev.construct,
        implicit: ev.implicit as c_int,
        tool_info: tool,
    };
    let mut ei: acc_event_info = match ev.kind {
        acc_ev_create
        | acc_ev_delete
        | acc_ev_alloc
        | acc_ev_free
        | acc_ev_enqueue_upload_start
        | acc_ev_enqueue_upload_end
        | acc_ev_enqueue_download_start
        | acc_ev_enqueue_download_end => acc_event_info {
            data_event: acc_data_event_info {
                event_type: ev.kind,
                valid_bytes: std::mem::size_of::<acc_data_event_info>() as c_int,
                parent_construct: ev.construct,
                implicit: ev.implicit as c_int,
                tool_info: tool,
                var_name: c_var.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
                bytes: ev.bytes,
                host_ptr: ev.host_ptr as *const c_void,
                device_ptr: ev.device_ptr as *const c_void,
            },
        },
        acc_ev_enqueue_launch_start | acc_ev_enqueue_launch_end => acc_event_info {
            launch_event: acc_launch_event_info {
                event_type: ev.kind,
                valid_bytes: std::mem::size_of::<acc_launch_event_info>() as c_int,
                parent_construct: ev.construct,
                implicit: ev.implicit as c_int,
                tool_info: tool,
                kernel_name: c_kernel.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
                num_gangs: ev.num_gangs,
                num_workers: ev.num_workers,
                vector_length: ev.vector_length,
            },
        },
        acc_ev_error => acc_event_info {
            error_event: acc_error_event_info {
                event_type: ev.kind,
                valid_bytes: std::mem::size_of::<acc_error_event_info>() as c_int,
                parent_construct: ev.construct,
                implicit: 0,
                tool_info: std::ptr::null_mut(),
                error_code: ev.error.map_or(acc_error_other, |e| e.code),
                error_message: c_msg.as_ref().map_or(std::ptr::null(), |c| c.as_ptr()),
                runtime_info: 0,
            },
        },
        _ => acc_event_info { other_event: other },
    };
    let mut api = acc_api_info {
        device_api: acc_device_api_none,
        valid_bytes: std::mem::size_of::<acc_api_info>() as c_int,
        device_type: ev.device_type,
        vendor: 0,
        device_handle: std::ptr::null(),
        context_handle: std::ptr::null(),
        async_handle: std::ptr::null(),
    };
    for &cb in cbs {
        if OFF_HERE.with(|s| s.borrow().contains(&(ev.kind, cb))) {
            continue;
        }
        // A callback disabled or unregistered while this event is dispatched is skipped.
        let still = reg()[ev.kind as usize].iter().any(|e| e.cb == cb && e.enabled);
        if !still {
            continue;
        }
        let f: unsafe extern "C" fn(*mut acc_prof_info, *mut acc_event_info, *mut acc_api_info) = std::mem::transmute(cb);
        f(&mut pi, &mut ei, &mut api);
    }
    ei.other_event.tool_info as usize
}

/// Runs the `acc_ev_error` callbacks and the recorder for `err`.
pub fn dispatch_error(err: &AccError) {
    if active() {
        emit(&Event {
            kind: acc_ev_error,
            loc: err.loc.as_deref(),
            var: err.var.as_deref(),
            host_ptr: err.host_range.map_or(0, |r| r.0),
            bytes: err.host_range.map_or(0, |r| r.1 - r.0),
            error: Some(err),
            ..Event::default()
        });
    }
}

// --- tools libraries ---------------------------------------------------------

/// Calls a tools library's `acc_register_library` at address `f` with the
/// runtime's registration routines (for a program that defines its own, or
/// a library loaded some other way).
///
/// # Safety
/// `f` must be the address of a function with `acc_register_library`'s signature.
pub unsafe fn call_register_library(f: usize) {
    type RegLib = unsafe extern "C" fn(acc_prof_reg, acc_prof_reg, acc_prof_lookup_func);
    if f != 0 {
        let f: RegLib = std::mem::transmute(f);
        f(crate::capi::acc_prof_register, crate::capi::acc_prof_unregister, crate::capi::acc_prof_lookup);
    }
}

/// Loads `ACC_PROFLIB` (or finds a preloaded `acc_register_library`) and
/// calls its `acc_register_library`. Called once, at first use.
pub fn load_tools_library() {
    let name = CString::new("acc_register_library").unwrap_or_default();
    let path = std::env::var("ACC_PROFLIB").ok().filter(|p| !p.trim().is_empty());
    let sym = unsafe {
        match &path {
            Some(p) => {
                let Ok(cpath) = CString::new(p.trim()) else { return };
                let h = libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
                if h.is_null() {
                    eprintln!("accjit: cannot load ACC_PROFLIB={p:?}");
                    return;
                }
                let s = libc::dlsym(h, name.as_ptr());
                if s.is_null() {
                    eprintln!("accjit: ACC_PROFLIB={p:?} has no acc_register_library");
                    return;
                }
                s
            }
            None => libc::dlsym(libc::RTLD_DEFAULT, name.as_ptr()),
        }
    };
    unsafe { call_register_library(sym as usize) }
}

/// Serialises tests that use the global registration state.
#[cfg(test)]
pub(crate) static TEST_LOCK: Mutex<()> = Mutex::new(());

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    static ORDER: Mutex<Vec<(i32, char)>> = Mutex::new(Vec::new());
    static CALLS: AtomicUsize = AtomicUsize::new(0);

    unsafe extern "C" fn cb_a(pi: *mut acc_prof_info, _: *mut acc_event_info, _: *mut acc_api_info) {
        ORDER.lock().unwrap().push(((*pi).event_type, 'a'));
        CALLS.fetch_add(1, SeqCst);
    }
    unsafe extern "C" fn cb_b(pi: *mut acc_prof_info, ei: *mut acc_event_info, _: *mut acc_api_info) {
        ORDER.lock().unwrap().push(((*pi).event_type, 'b'));
        if (*pi).event_type == acc_ev_create {
            assert_eq!((*ei).data_event.bytes, 64);
            assert_eq!((*pi).line_no, 7);
        }
    }

    #[test]
    fn order_refcount_toggle() {
        let _g = TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        ORDER.lock().unwrap().clear();
        let a = cb_a as *const () as usize;
        let b = cb_b as *const () as usize;
        register(acc_ev_create, a, acc_reg);
        register(acc_ev_create, a, acc_reg); // refcount 2, still called once
        register(acc_ev_create, b, acc_reg);
        register(acc_ev_wait_end, a, acc_reg);
        register(acc_ev_wait_end, b, acc_reg);
        assert!(active());
        emit(&Event { kind: acc_ev_create, bytes: 64, loc: Some("p.c:7"), ..Event::default() });
        emit(&Event { kind: acc_ev_wait_end, ..Event::default() });
        assert_eq!(*ORDER.lock().unwrap(), vec![(acc_ev_create, 'a'), (acc_ev_create, 'b'), (acc_ev_wait_end, 'b'), (acc_ev_wait_end, 'a')]);
        ORDER.lock().unwrap().clear();
        unregister(acc_ev_create, b, acc_toggle);
        unregister(acc_ev_create, a, acc_reg);
        emit(&Event { kind: acc_ev_create, bytes: 64, ..Event::default() });
        assert_eq!(*ORDER.lock().unwrap(), vec![(acc_ev_create, 'a')]);
        unregister(acc_ev_create, a, acc_reg);
        unregister(acc_ev_create, b, acc_reg);
        unregister(acc_ev_wait_end, a, acc_reg);
        unregister(acc_ev_wait_end, b, acc_reg);
        assert!(!active());
    }

    #[test]
    fn recorder_sees_events_with_time() {
        let _g = TEST_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s2 = seen.clone();
        set_recorder(Some(Box::new(move |e: &Event| s2.lock().unwrap().push((e.name(), e.var.map(String::from))))));
        emit(&Event { kind: acc_ev_alloc, var: Some("x[0:4]"), ..Event::default() });
        set_recorder(None);
        emit(&Event { kind: acc_ev_alloc, ..Event::default() });
        assert_eq!(*seen.lock().unwrap(), vec![("alloc", Some("x[0:4]".to_string()))]);
    }
}
