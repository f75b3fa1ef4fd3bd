//! The data actions of spec §2.6–2.7 on one device: what each data clause
//! does at region entry and exit (structured or dynamic reference counter),
//! `update`, attach/detach, `use_device`, with the spec's not-present and
//! partly-present errors.
//!
//! Each action works in three steps: under the present-table lock it checks
//! and updates the counts and plans what to do (`Step`s: transfers and
//! profiling events); it releases the lock; it runs the plan in order, the
//! transfers either at once or as one task on the async queue. Profiling
//! callbacks therefore never run under the lock and may call `acc_*`.
//!
//! Conventions (documented for `lower` and the API):
//! - A null address is no action (a null pointer in a clause); so is a
//!   zero-length section, except that it still yields a device address.
//! - At a structured exit a range that is no longer present, or whose
//!   structured count is 0, is no action; so is a dynamic exit (`exit data`)
//!   of absent data or data with dynamic count 0. The API routines
//!   (`acc_copyout`, `acc_delete`, …) instead report `acc_error_not_present`.
//! - A range overlapping present data without lying inside one entry is
//!   `acc_error_partly_present` everywhere.
//! - `copyout` at count zero copies back the exit range and frees the whole
//!   device copy (memory made by `acc_map_data` is never freed).

use crate::consts::*;
use crate::device::Device;
use crate::error::{AccError, AccResult};
use crate::hosted::{self, Held};
use crate::present::{Attachment, Entry, Lookup};
use crate::prof::{self, Event};
use crate::queue;
use accjit_abi::clause;

/// Data clause kinds, numbered by the runtime ABI table (`accjit_abi::clause`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clause {
    Copy = clause::COPY as isize,
    CopyIn = clause::COPYIN as isize,
    CopyOut = clause::COPYOUT as isize,
    Create = clause::CREATE as isize,
    NoCreate = clause::NO_CREATE as isize,
    Present = clause::PRESENT as isize,
    DevicePtr = clause::DEVICEPTR as isize,
    Attach = clause::ATTACH as isize,
    Detach = clause::DETACH as isize,
    Delete = clause::DELETE as isize,
    Link = clause::LINK as isize,
    DeviceResident = clause::DEVICE_RESIDENT as isize,
    UseDevice = clause::USE_DEVICE as isize,
    UpdateSelf = clause::UPDATE_SELF as isize,
    UpdateDevice = clause::UPDATE_DEVICE as isize,
}

impl Clause {
    /// The clause of an ABI kind number (`accjit_abi::clause`).
    pub fn from_i64(k: i64) -> Option<Clause> {
        use Clause::*;
        const ALL: [Clause; 15] =
            [Copy, CopyIn, CopyOut, Create, NoCreate, Present, DevicePtr, Attach, Detach, Delete, Link, DeviceResident, UseDevice, UpdateSelf, UpdateDevice];
        ALL.into_iter().find(|c| *c as i64 == k)
    }

    /// The clause's spelling, from the ABI table.
    pub fn name(self) -> &'static str {
        clause::ALL[self as usize].1
    }
}

/// `flags` bits of the data ABI.
pub use accjit_abi::flags;
use flags::*;

/// Who asks: for messages and profiling.
#[derive(Clone, Copy, Debug)]
pub struct Ctx<'a> {
    /// Clause text (`"a[0:n]"`).
    pub name: Option<&'a str>,
    /// `"file.c:LINE"`.
    pub loc: Option<&'a str>,
    /// `acc_construct_*` for profiling.
    pub construct: i32,
    pub implicit: bool,
    /// Called through the API routines (absent data at exit is an error).
    pub api: bool,
    /// The data is not the named variable's own section (the rows of a deep
    /// section): it is not what a pointer argument of that name stands for.
    pub inner: bool,
}

impl<'a> Ctx<'a> {
    pub fn api() -> Ctx<'a> {
        Ctx { name: None, loc: None, construct: acc_construct_runtime_api, implicit: false, api: true, inner: false }
    }
    pub fn directive(name: Option<&'a str>, loc: Option<&'a str>, construct: i32) -> Ctx<'a> {
        Ctx { name, loc, construct, implicit: false, api: false, inner: false }
    }
    fn err(&self, e: AccError) -> AccError {
        e.with_var(self.name).with_loc(self.loc)
    }
    /// `e` located at the directive (no device, …): its line, not its variable.
    pub fn err_at(&self, e: AccError) -> AccError {
        e.with_loc(self.loc)
    }
    /// The same, for the blocks below the first level of a deep section.
    pub fn inner(self) -> Ctx<'a> {
        Ctx { inner: true, ..self }
    }
    /// The variable the clause names: `a` of `a[10:20]`, `s.x` of `s.x[0:n]`.
    /// Every data entry and exit asks (twice per region around a launch):
    /// one pass over the bytes, no string searchers.
    fn var(&self) -> Option<&'a str> {
        if self.inner {
            return None;
        }
        clause_var(self.name?)
    }
}

/// The variable clause text `n` names (see [`Ctx::var`]): the text before
/// the first `[`, trimmed, when there is no `[` or the first subscript is a
/// section (`a[i][0:m]` names a row `a[i]` points to, not a section of `a`).
fn clause_var(n: &str) -> Option<&str> {
    let b = n.as_bytes();
    let open = b.iter().position(|&c| c == b'[');
    if let Some(i) = open {
        let first = &b[i + 1..];
        let first = &first[..first.iter().position(|&c| c == b']').unwrap_or(first.len())];
        if !first.contains(&b':') {
            return None;
        }
    }
    // `[` is ASCII: slicing there keeps `n` valid UTF-8.
    let v = n[..open.unwrap_or(b.len())].trim();
    (!v.is_empty()).then_some(v)
}

/// One thing to do after the table lock is released.
enum Step {
    Ev(i32, usize, usize, usize),
    ToDev { dev: usize, host: usize, bytes: usize },
    FromDev { host: usize, dev: usize, bytes: usize },
    Zero { dev: usize, bytes: usize },
    Free { dev: usize, host: usize, bytes: usize },
    WritePtr { dev: usize, value: usize },
}

struct Plan<'a> {
    dev: &'static Device,
    queue: Option<i64>,
    async_: i64,
    ctx: Ctx<'a>,
    steps: Vec<Step>,
}

impl<'a> Plan<'a> {
    fn new(dev: &'static Device, async_: i64, ctx: Ctx<'a>) -> AccResult<Plan<'a>> {
        let queue = queue::resolve(async_).map_err(|e| ctx.err(e))?;
        Ok(Plan { dev, queue, async_, ctx, steps: Vec::new() })
    }

    fn ev(&mut self, kind: i32, host: usize, dev: usize, bytes: usize) {
        if prof::active() {
            self.steps.push(Step::Ev(kind, host, dev, bytes));
        }
    }

    fn upload(&mut self, host: usize, dev: usize, bytes: usize) {
        self.ev(acc_ev_enqueue_upload_start, host, dev, bytes);
        self.steps.push(Step::ToDev { dev, host, bytes });
        self.ev(acc_ev_enqueue_upload_end, host, dev, bytes);
    }

    fn download(&mut self, host: usize, dev: usize, bytes: usize) {
        self.ev(acc_ev_enqueue_download_start, host, dev, bytes);
        self.steps.push(Step::FromDev { host, dev, bytes });
        self.ev(acc_ev_enqueue_download_end, host, dev, bytes);
    }

    fn event(&self, kind: i32, host: usize, dev: usize, bytes: usize, tool_info: usize) -> usize {
        prof::emit(&Event {
            kind,
            construct: self.ctx.construct,
            implicit: self.ctx.implicit,
            device_type: self.dev.ty.to_acc(),
            device_num: self.dev.num as i32,
            async_: self.async_,
            var: self.ctx.name,
            bytes,
            host_ptr: host,
            device_ptr: dev,
            loc: self.ctx.loc,
            tool_info,
            ..Event::default()
        })
    }

    /// Runs the plan (call with the table lock released). With a queue,
    /// the transfers go on it: as async copies on its stream where the
    /// device's queues are streams (other steps once the stream has
    /// drained), else as one task on the queue's thread.
    fn run(self) -> AccResult<()> {
        let mem_only = |s: &Step| !matches!(s, Step::Ev(..));
        let mut tools: Vec<usize> = Vec::new();
        for s in self.steps.iter() {
            match *s {
                Step::Ev(kind, h, d, b) => {
                    let name = event_name(kind);
                    if name.ends_with("_start") {
                        tools.push(self.event(kind, h, d, b, 0));
                    } else if name.ends_with("_end") {
                        let t = tools.pop().unwrap_or(0);
                        self.event(kind, h, d, b, t);
                    } else {
                        self.event(kind, h, d, b, 0);
                    }
                }
                _ if self.queue.is_some() => {}
                ref s => unsafe { do_step(self.dev, s) },
            }
        }
        let dev = self.dev;
        let Some(q) = self.queue else {
            return match dev.mem.take_error() {
                Some(e) => Err(e),
                None => Ok(()),
            };
        };
        let pending: Vec<Step> = self.steps.into_iter().filter(mem_only).collect();
        if pending.is_empty() {
            return Ok(());
        }
        if let Some(st) = dev.queues.streams() {
            for s in &pending {
                // SAFETY: the ranges are the clause's host data and its device copy.
                unsafe {
                    match *s {
                        Step::ToDev { dev: d, host, bytes } => st.copy_to(Some(q), d, host as *const u8, bytes)?,
                        Step::FromDev { host, dev: d, bytes } => st.copy_from(Some(q), host as *mut u8, d, bytes)?,
                        ref other => {
                            st.sync(Some(q))?;
                            do_step(dev, other)
                        }
                    }
                }
            }
            return Ok(());
        }
        dev.queues.submit(
            q,
            Box::new(move || {
                for s in &pending {
                    unsafe { do_step(dev, s) };
                }
            }),
        );
        Ok(())
    }
}

unsafe fn do_step(dev: &Device, s: &Step) {
    match *s {
        Step::Ev(..) => {}
        Step::ToDev { dev: d, host, bytes } => dev.mem.copy_to(d, host as *const u8, bytes),
        Step::FromDev { host, dev: d, bytes } => dev.mem.copy_from(host as *mut u8, d, bytes),
        Step::Zero { dev: d, bytes } => dev.mem.zero(d, bytes),
        Step::Free { dev: d, host, bytes } => dev.mem.free_copy(d, host, bytes),
        Step::WritePtr { dev: d, value } => {
            let v = value;
            dev.mem.copy_to(d, &v as *const usize as *const u8, std::mem::size_of::<usize>());
        }
    }
}

/// A structured data clause in force on this thread: variable `var`'s
/// section is the entry at host address `host` of device `dev`.
struct InForce {
    var: VarName,
    dev: usize,
    host: usize,
}

/// A clause's variable name, inline up to [`VarName::INLINE`] bytes: a
/// region around every launch (`present(a[0:n])`) enters one per clause,
/// and the usual name allocates nothing.
enum VarName {
    Inline(u8, [u8; VarName::INLINE]),
    Heap(Box<str>),
}

impl VarName {
    const INLINE: usize = 39;

    fn new(s: &str) -> VarName {
        if s.len() <= Self::INLINE {
            let mut b = [0; Self::INLINE];
            b[..s.len()].copy_from_slice(s.as_bytes());
            VarName::Inline(s.len() as u8, b)
        } else {
            VarName::Heap(s.into())
        }
    }

    fn is(&self, s: &str) -> bool {
        match self {
            VarName::Inline(n, b) => &b[..*n as usize] == s.as_bytes(),
            VarName::Heap(h) => &**h == s,
        }
    }
}

thread_local! {
    /// The structured clauses in force, innermost last (entered at region
    /// entry, dropped at its exit): what a pointer argument of a launch
    /// stands for when it does not lie in the section its clause made
    /// present (`present(a[500:250])` and the kernel gets `a`).
    static IN_FORCE: std::cell::RefCell<Vec<InForce>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The clauses in force kept per thread (older ones are forgotten first).
const IN_FORCE_MAX: usize = 256;

fn clause_entered(dev: &Device, var: &str, host: usize) {
    IN_FORCE.with(|f| {
        let mut f = f.borrow_mut();
        if f.len() == IN_FORCE_MAX {
            f.remove(0);
        }
        f.push(InForce { var: VarName::new(var), dev: dev as *const Device as usize, host });
    });
}

fn clause_left(dev: &Device, var: &str, host: usize) {
    let d = dev as *const Device as usize;
    IN_FORCE.with(|f| {
        let mut f = f.borrow_mut();
        if let Some(i) = f.iter().rposition(|c| c.dev == d && c.host == host && c.var.is(var)) {
            f.remove(i);
        }
    });
}

/// Drops every clause in force on this thread (a hosted call that ended early).
pub(crate) fn forget_clauses_in_force() {
    IN_FORCE.with(|f| f.borrow_mut().clear());
}

/// The host start of the section the innermost structured clause in force
/// on variable `var` (on `dev`) made present, among those `accept` allows.
pub(crate) fn section_in_force(dev: &Device, var: &str, mut accept: impl FnMut(usize) -> bool) -> Option<usize> {
    let d = dev as *const Device as usize;
    IN_FORCE.with(|f| f.borrow().iter().rev().find(|c| c.dev == d && c.var.is(var) && accept(c.host)).map(|c| c.host))
}

/// The journal record of a structured reference (see `hosted.rs`).
fn held(dev: &'static Device, addr: usize, bytes: usize) -> Held {
    Held::Data { dev: dev as *const Device as usize, addr, bytes }
}

/// Drops a structured reference of a hosted call that ended early: a
/// structured exit without copying back.
pub(crate) fn release_held(h: Held) {
    let ctx = Ctx::directive(None, None, acc_construct_data);
    match h {
        Held::Data { dev, addr, bytes } => {
            // SAFETY: devices are statics (`device::all_devices`).
            let dev: &'static Device = unsafe { &*(dev as *const Device) };
            let _ = exit(dev, Clause::Create, addr, bytes, STRUCTURED, acc_async_sync, ctx);
        }
        Held::Attach { dev, ptr_addr } => {
            let dev: &'static Device = unsafe { &*(dev as *const Device) };
            let _ = detach(dev, ptr_addr, STRUCTURED, acc_async_sync, ctx);
        }
    }
}

fn lookup_err(dev: &Device, what: &str, addr: usize, bytes: usize, l: Lookup) -> AccError {
    match l {
        Lookup::Partly(s, b) => AccError::partly_present(what, addr, bytes, (s, b), dev.name()),
        _ => AccError::not_present(what, addr, bytes, dev.name()),
    }
}

/// Region entry (structured) or `enter data` / API (dynamic) for one
/// variable. Returns the device address of `addr`.
pub fn enter(dev: &'static Device, clause: Clause, addr: usize, bytes: usize, fl: i64, async_: i64, ctx: Ctx) -> AccResult<usize> {
    use Clause::*;
    match clause {
        DevicePtr | Link | UseDevice | Detach | Delete => return Ok(addr),
        UpdateSelf | UpdateDevice => return update(dev, clause == UpdateDevice, addr, bytes, fl, async_, ctx).map(|_| addr),
        Attach => return attach(dev, addr, fl, async_, ctx).map(|_| addr),
        _ => {}
    }
    let mut plan = Plan::new(dev, async_, ctx)?;
    if addr == 0 {
        return Ok(0);
    }
    let structured = fl & STRUCTURED != 0;
    let result = {
        let mut t = dev.table();
        let l = t.lookup(addr, bytes);
        if let (Lookup::Present(k), Some(var)) = (l, ctx.var()) {
            t.name_entry(k, var);
            if structured && bytes > 0 {
                clause_entered(dev, var, k);
            }
        }
        match l {
            Lookup::Present(k) => {
                let e = t.get_mut(k).ok_or_else(|| AccError::new(acc_error_other, "present table inconsistent"))?;
                if bytes > 0 {
                    if structured {
                        e.structured += 1;
                        hosted::journal_push(held(dev, addr, bytes));
                    } else {
                        e.dynamic += 1;
                    }
                }
                e.dev_of(addr)
            }
            _ if bytes == 0 => {
                if structured && !dev.mem.is_shared() {
                    t.allow_absent(addr, 0);
                }
                addr
            }
            Lookup::Partly(..) => return Err(ctx.err(lookup_err(dev, clause.name(), addr, bytes, l))),
            Lookup::NotPresent => match clause {
                Present => return Err(ctx.err(lookup_err(dev, clause.name(), addr, bytes, l))),
                NoCreate => {
                    if structured && !dev.mem.is_shared() {
                        t.allow_absent(addr, bytes);
                    }
                    addr
                }
                _ => {
                    // A `declare link` global's section lives in its device symbol (never freed).
                    let home = t.home_of(addr, bytes);
                    let d = match home {
                        Some(d) => d,
                        None => dev.mem.alloc_copy(addr, bytes).map_err(|e| ctx.err(e.with_range(addr, bytes)))?,
                    };
                    t.insert(Entry { host: addr, bytes, dev: d, structured: structured as u64, dynamic: !structured as u64, mapped: home.is_some() });
                    if let Some(var) = ctx.var() {
                        t.name_entry(addr, var);
                        if structured {
                            clause_entered(dev, var, addr);
                        }
                    }
                    if structured {
                        hosted::journal_push(held(dev, addr, bytes));
                    }
                    plan.ev(acc_ev_alloc, addr, d, bytes);
                    plan.ev(acc_ev_create, addr, d, bytes);
                    if matches!(clause, Copy | CopyIn) {
                        plan.upload(addr, d, bytes);
                    } else if fl & ZERO != 0 {
                        plan.steps.push(Step::Zero { dev: d, bytes });
                    }
                    d
                }
            },
        }
    };
    plan.run().map_err(|e| ctx.err(e))?;
    Ok(result)
}

/// Region exit (structured) or `exit data` / API (dynamic) for one variable.
pub fn exit(dev: &'static Device, clause: Clause, addr: usize, bytes: usize, fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    use Clause::*;
    match clause {
        DevicePtr | Link | UseDevice | UpdateSelf | UpdateDevice => return Ok(()),
        Attach => return detach(dev, addr, fl & !FINALIZE, async_, ctx),
        Detach => return detach(dev, addr, fl, async_, ctx),
        _ => {}
    }
    let mut plan = Plan::new(dev, async_, ctx)?;
    let structured = fl & STRUCTURED != 0;
    if addr == 0 || bytes == 0 {
        if addr != 0 && structured && !dev.mem.is_shared() && dev.table().lookup(addr, bytes) == Lookup::NotPresent {
            dev.table().release_absent(addr);
        }
        return Ok(());
    }
    {
        let mut t = dev.table();
        let l = t.lookup(addr, bytes);
        let k = match l {
            Lookup::Present(k) => k,
            Lookup::NotPresent if !ctx.api => {
                if structured && clause == NoCreate && !dev.mem.is_shared() {
                    t.release_absent(addr);
                }
                return Ok(());
            }
            _ => return Err(ctx.err(lookup_err(dev, clause.name(), addr, bytes, l))),
        };
        let e = t.get_mut(k).ok_or_else(|| AccError::new(acc_error_other, "present table inconsistent"))?;
        if structured {
            if e.structured == 0 {
                return Ok(());
            }
            if let Some(var) = ctx.var() {
                clause_left(dev, var, k);
            }
            e.structured -= 1;
            hosted::journal_pop(held(dev, addr, bytes));
        } else {
            if e.dynamic == 0 {
                return Ok(());
            }
            e.dynamic = if fl & FINALIZE != 0 { 0 } else { e.dynamic - 1 };
        }
        if e.total() == 0 {
            let e = t.remove(k).ok_or_else(|| AccError::new(acc_error_other, "present table inconsistent"))?;
            if matches!(clause, Copy | CopyOut) {
                plan.download(addr, e.dev_of(addr), bytes);
            }
            plan.ev(acc_ev_delete, e.host, e.dev, e.bytes);
            if !e.mapped {
                plan.steps.push(Step::Free { dev: e.dev, host: e.host, bytes: e.bytes });
                plan.ev(acc_ev_free, e.host, e.dev, e.bytes);
            }
        }
    }
    plan.run().map_err(|e| ctx.err(e))
}

/// `update self` (`to_device` false) / `update device`, or the API routines.
pub fn update(dev: &'static Device, to_device: bool, addr: usize, bytes: usize, fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    let mut plan = Plan::new(dev, async_, ctx)?;
    if addr == 0 || bytes == 0 {
        return Ok(());
    }
    let what = if to_device { "update device" } else { "update self" };
    let d = {
        let t = dev.table();
        match t.lookup(addr, bytes) {
            Lookup::Present(k) => t.get(k).map(|e| e.dev_of(addr)).unwrap_or(addr),
            Lookup::NotPresent if fl & IF_PRESENT != 0 => return Ok(()),
            l => return Err(ctx.err(lookup_err(dev, what, addr, bytes, l))),
        }
    };
    let bracket = ctx.construct == acc_construct_update;
    if bracket {
        plan.ev(acc_ev_update_start, addr, d, bytes);
    }
    if to_device {
        plan.upload(addr, d, bytes);
    } else {
        plan.download(addr, d, bytes);
    }
    if bracket {
        plan.ev(acc_ev_update_end, addr, d, bytes);
    }
    plan.run().map_err(|e| ctx.err(e))
}

const PTR: usize = std::mem::size_of::<usize>();

/// The attach action for the pointer stored at host address `ptr_addr`.
pub fn attach(dev: &'static Device, ptr_addr: usize, fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    attach_section(dev, ptr_addr, None, fl, async_, ctx)
}

/// The attach action where the pointer's target is known to be present
/// from `section` on (a deep section `a[1:4][10:20]` makes each row present
/// from element 10): the device pointer is the section's device address
/// less the same offset, so the kernel's `a[i][10..30]` lands in the
/// device copy. `None`: the target itself must be present.
pub fn attach_section(dev: &'static Device, ptr_addr: usize, section: Option<usize>, fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    let mut plan = Plan::new(dev, async_, ctx)?;
    if ptr_addr == 0 {
        return Err(ctx.err(AccError::new(acc_error_invalid_null_pointer, "attach: invalid null pointer (the address of the pointer to attach is null)")));
    }
    {
        let mut t = dev.table();
        let pe = match t.lookup(ptr_addr, PTR) {
            Lookup::Present(k) => t.get(k).cloned(),
            Lookup::NotPresent => return Ok(()),
            l => return Err(ctx.err(lookup_err(dev, "attach", ptr_addr, PTR, l))),
        };
        let Some(pe) = pe else { return Ok(()) };
        let target = unsafe { std::ptr::read_unaligned(ptr_addr as *const usize) };
        if target == 0 {
            return Ok(());
        }
        let at = section.unwrap_or(target);
        let Some(tdev) = t.find(at, 1).map(|e| e.dev_of(at).wrapping_sub(at.wrapping_sub(target))) else { return Ok(()) };
        if fl & STRUCTURED != 0 {
            hosted::journal_push(Held::Attach { dev: dev as *const Device as usize, ptr_addr });
        }
        match t.attachment(ptr_addr) {
            // Attached already (§2.7.2): only the attachment counter changes.
            Some(a) if a.count > 0 => {
                t.set_attachment(ptr_addr, Some(Attachment { count: a.count + 1, target: a.target }));
            }
            _ => {
                t.set_attachment(ptr_addr, Some(Attachment { count: 1, target }));
                let pdev = pe.dev_of(ptr_addr);
                // In shared memory the pointer's device copy is the host pointer itself.
                if !(dev.mem.is_shared() && pdev == ptr_addr) {
                    plan.steps.push(Step::WritePtr { dev: pdev, value: tdev });
                }
            }
        }
    }
    plan.run().map_err(|e| ctx.err(e))
}

/// The detach action (`FINALIZE` in `fl`: immediate detach).
pub fn detach(dev: &'static Device, ptr_addr: usize, fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    let mut plan = Plan::new(dev, async_, ctx)?;
    if ptr_addr == 0 {
        return Err(ctx.err(AccError::new(acc_error_invalid_null_pointer, "detach: invalid null pointer (the address of the pointer to detach is null)")));
    }
    {
        let mut t = dev.table();
        let pe = match t.lookup(ptr_addr, PTR) {
            Lookup::Present(k) => t.get(k).cloned(),
            Lookup::NotPresent => return Ok(()),
            l => return Err(ctx.err(lookup_err(dev, "detach", ptr_addr, PTR, l))),
        };
        let Some(pe) = pe else { return Ok(()) };
        let Some(a) = t.attachment(ptr_addr) else { return Ok(()) };
        let count = if fl & FINALIZE != 0 { 0 } else { a.count - 1 };
        if fl & STRUCTURED != 0 {
            hosted::journal_pop(Held::Attach { dev: dev as *const Device as usize, ptr_addr });
        }
        t.set_attachment(ptr_addr, Some(Attachment { count, target: a.target }));
        if count == 0 {
            let pdev = pe.dev_of(ptr_addr);
            if !(dev.mem.is_shared() && pdev == ptr_addr) {
                let host_value = unsafe { std::ptr::read_unaligned(ptr_addr as *const usize) };
                plan.steps.push(Step::WritePtr { dev: pdev, value: host_value });
            }
        }
    }
    plan.run().map_err(|e| ctx.err(e))
}

/// `host_data use_device`: the device address of `addr`.
pub fn use_device(dev: &'static Device, addr: usize, if_present: bool, ctx: Ctx) -> AccResult<usize> {
    if addr == 0 {
        return Ok(0);
    }
    let t = dev.table();
    match t.lookup(addr, 1) {
        Lookup::Present(k) => Ok(t.get(k).map_or(addr, |e| e.dev_of(addr))),
        Lookup::NotPresent if if_present => Ok(addr),
        l => Err(ctx.err(lookup_err(dev, "use_device", addr, 1, l))),
    }
}

/// Structured and dynamic counts of the entry containing `[addr, addr+bytes)`.
pub fn counts(dev: &Device, addr: usize, bytes: usize) -> Option<(u64, u64)> {
    dev.table().find(addr, bytes).map(|e| (e.structured, e.dynamic))
}

#[cfg(test)]
mod tests {
    use super::clause_var;

    #[test]
    fn clause_var_names_the_variable_of_a_section() {
        assert_eq!(clause_var("a[0:n]"), Some("a"));
        assert_eq!(clause_var(" s.x [lo:len]"), Some("s.x"));
        assert_eq!(clause_var("a"), Some("a"));
        assert_eq!(clause_var("a[i][0:m]"), None, "a row a[i] points to");
        assert_eq!(clause_var("a[0:n][0:m]"), Some("a"));
        assert_eq!(clause_var("a[3]"), None);
        assert_eq!(clause_var("[0:n]"), None);
        assert_eq!(clause_var(""), None);
        assert_eq!(clause_var("größe[:n]"), Some("größe"));
        assert_eq!(clause_var("a[0:n"), Some("a"), "an unclosed subscript, as before");
    }
}
