//! The OpenACC runtime routines (spec chapter 3) as safe Rust functions
//! returning `Result<_, AccError>`: what the Python bindings call, and what
//! the `extern "C"` routines in `capi.rs` wrap (ending the program on error).
//!
//! Addresses are `usize`; device types are `acc_device_t` values
//! (`crate::consts`); async arguments are `i64` (`acc_async_sync` = -2,
//! `acc_async_noval` = -1, queues ≥ 0). Data routines use the dynamic
//! reference count, as the spec says; [`data_enter`]/[`data_exit`] expose
//! the clause-level actions (structured or dynamic) for `acc.data(...)`.
//!
//! Device-type decisions: `acc_on_device(t)` agrees with `lower`'s folding
//! (nvc's `-acc=multicore` behaviour): code runs on the host CPU everywhere,
//! so `acc_device_host` is true and `acc_device_not_host` false in host
//! code and in kernels alike; `acc_device_multicore` is true only inside a
//! kernel running on the multicore device (routines called from one see
//! that through the thread's kernel state).

use crate::consts::*;
use crate::data::{self, Clause, Ctx};
use crate::device::{self, Device, DeviceType};
use crate::error::{AccError, AccResult};
use crate::queue;

pub use crate::data::flags;

fn dev() -> AccResult<&'static Device> {
    device::current_device()
}

fn ty_arg(t: i32) -> AccResult<DeviceType> {
    device::resolve_type(t).ok_or_else(|| AccError::new(acc_error_invalid_argument, format!("{t} is not a device type")))
}

fn dev_num(num: i32) -> AccResult<&'static Device> {
    let ty = device::current_type();
    if num < 0 {
        return Err(AccError::new(acc_error_device_unavailable, format!("{num} is not a valid device number")));
    }
    let d = device::device_checked(ty, num as usize)?;
    d.ensure_init();
    Ok(d)
}

// --- devices (§3.2.1–3.2.8) ---------------------------------------------------

/// `acc_get_num_devices`.
pub fn get_num_devices(t: i32) -> i32 {
    match t {
        acc_device_not_host => device::ALL_TYPES.iter().filter(|t| **t != DeviceType::Host).map(|t| device::num_devices(*t)).sum::<usize>() as i32,
        _ => device::resolve_type(t).map_or(0, device::num_devices) as i32,
    }
}

/// `acc_set_device_type`.
pub fn set_device_type(t: i32) -> AccResult<()> {
    device::set_current_type(ty_arg(t)?)
}

/// `acc_get_device_type` (never `acc_device_none`: the type is known from the start).
pub fn get_device_type() -> i32 {
    device::current_type().to_acc()
}

/// `acc_set_device_num` (negative: the default, 0).
pub fn set_device_num(num: i32, t: i32) -> AccResult<()> {
    if t == acc_device_none {
        // 1.0: applies to every type with devices.
        for ty in device::ALL_TYPES {
            if device::num_devices(ty) > 0 {
                device::set_current_num(ty, num)?;
            }
        }
        return Ok(());
    }
    let ty = ty_arg(t)?;
    device::set_current_num(ty, num)?;
    device::set_current_type(ty)
}

/// `acc_get_device_num`: -1 when the type has no devices.
pub fn get_device_num(t: i32) -> i32 {
    match device::resolve_type(t) {
        Some(ty) if device::num_devices(ty) > 0 => device::current_num(ty) as i32,
        _ => -1,
    }
}

/// `acc_get_property` (0 when unknown).
pub fn get_property(num: i32, t: i32, prop: i32) -> usize {
    match device::resolve_type(t) {
        Some(ty) if num >= 0 => device::property(ty, num as usize, prop),
        _ => 0,
    }
}

/// `acc_get_property_string` (None when unknown).
pub fn get_property_string(num: i32, t: i32, prop: i32) -> Option<String> {
    match device::resolve_type(t) {
        Some(ty) if num >= 0 => device::property_string(ty, num as usize, prop),
        _ => None,
    }
}

/// The types an `acc_init`/`acc_shutdown` argument names: `acc_device_none`
/// every type with devices, `acc_device_default` the default type (as the
/// directives' `device_type(default)`), `acc_device_not_host` every
/// non-host type.
fn types_of(t: i32) -> AccResult<Vec<DeviceType>> {
    Ok(match t {
        acc_device_none => device::ALL_TYPES.iter().copied().filter(|t| device::num_devices(*t) > 0).collect(),
        acc_device_not_host => device::ALL_TYPES.iter().copied().filter(|t| *t != DeviceType::Host).collect(),
        t => vec![ty_arg(t)?],
    })
}

/// `acc_init`: initialises every device of the type and makes it current.
pub fn init(t: i32) -> AccResult<()> {
    device::ensure_env();
    let tys = types_of(t)?;
    if tys.len() == 1 {
        device::device_checked(tys[0], 0)?;
        device::set_current_type(tys[0])?;
    }
    for ty in tys {
        device::devices_of(ty).for_each(|d| d.ensure_init());
    }
    Ok(())
}

/// `acc_init_device`.
pub fn init_device(num: i32, t: i32) -> AccResult<()> {
    let ty = ty_arg(t)?;
    let d = device::device_checked(ty, num.max(0) as usize)?;
    d.ensure_init();
    device::set_current_type(ty)?;
    device::set_current_num(ty, num.max(0))
}

/// `acc_shutdown`: waits, frees all present data, uninitialises. A type
/// with no devices is `acc_error_device_type_unavailable`, as for
/// `acc_init` and the `shutdown` directive.
pub fn shutdown(t: i32) -> AccResult<()> {
    let tys = types_of(t)?;
    if let [ty] = tys[..] {
        device::device_checked(ty, 0)?;
    }
    for ty in tys {
        device::devices_of(ty).for_each(|d| d.shutdown());
    }
    Ok(())
}

/// `acc_shutdown_device`.
pub fn shutdown_device(num: i32, t: i32) -> AccResult<()> {
    let ty = ty_arg(t)?;
    device::device_checked(ty, num.max(0) as usize)?.shutdown();
    Ok(())
}

/// `acc_on_device` on the calling thread (see the module docs).
pub fn on_device(t: i32) -> bool {
    let here = crate::pool::in_kernel().unwrap_or(acc_device_host);
    let host_cpu = here == acc_device_host || here == acc_device_multicore;
    match t {
        acc_device_host => host_cpu,
        acc_device_not_host => !host_cpu,
        acc_device_current => true,
        t => t == here && t != acc_device_none && t != acc_device_default,
    }
}

// --- async (§3.2.9–3.2.14) ----------------------------------------------------

fn check_wait_arg(q: i64) -> AccResult<()> {
    queue::resolve_wait(q).map(|_| ())
}

/// `acc_async_test`: true when queue `q` is idle.
pub fn async_test(q: i64) -> AccResult<bool> {
    async_test_device(q, -1)
}

/// `acc_async_test_device` (`num` -1: the current device).
pub fn async_test_device(q: i64, num: i32) -> AccResult<bool> {
    let d = if num == -1 { dev()? } else { dev_num(num)? };
    match queue::resolve_wait(q)? {
        None => Ok(true),
        Some(v) => Ok(d.queues.test(v)),
    }
}

pub fn async_test_all() -> AccResult<bool> {
    Ok(dev()?.queues.test_all())
}

pub fn async_test_all_device(num: i32) -> AccResult<bool> {
    Ok(dev_num(num)?.queues.test_all())
}

/// `acc_wait`.
pub fn wait(q: i64) -> AccResult<()> {
    check_wait_arg(q)?;
    queue::wait(dev()?, Some(&[q]), acc_async_sync, None, false)
}

pub fn wait_device(q: i64, num: i32) -> AccResult<()> {
    check_wait_arg(q)?;
    queue::wait(dev_num(num)?, Some(&[q]), acc_async_sync, None, false)
}

pub fn wait_all() -> AccResult<()> {
    queue::wait(dev()?, None, acc_async_sync, None, false)
}

pub fn wait_all_device(num: i32) -> AccResult<()> {
    queue::wait(dev_num(num)?, None, acc_async_sync, None, false)
}

/// `acc_wait_async`: queue `a` waits for queue `q`'s current work.
pub fn wait_async(q: i64, a: i64) -> AccResult<()> {
    check_wait_arg(q)?;
    queue::wait(dev()?, Some(&[q]), a, None, false)
}

pub fn wait_device_async(q: i64, a: i64, num: i32) -> AccResult<()> {
    check_wait_arg(q)?;
    queue::wait(dev_num(num)?, Some(&[q]), a, None, false)
}

pub fn wait_all_async(a: i64) -> AccResult<()> {
    queue::wait(dev()?, None, a, None, false)
}

pub fn wait_all_device_async(a: i64, num: i32) -> AccResult<()> {
    queue::wait(dev_num(num)?, None, a, None, false)
}

/// `acc_wait_any`: index of an idle queue among `qs` (-1 if none applies).
pub fn wait_any(qs: &[i64]) -> AccResult<i32> {
    queue::wait_any(dev()?, qs)
}

pub fn wait_any_device(qs: &[i64], num: i32) -> AccResult<i32> {
    queue::wait_any(dev_num(num)?, qs)
}

/// `acc_get_default_async`.
pub fn get_default_async() -> i64 {
    device::default_async()
}

/// `acc_set_default_async`.
pub fn set_default_async(a: i64) -> AccResult<()> {
    device::set_default_async(a)
}

// --- memory (§3.2.16–3.2.30) ---------------------------------------------------

/// `acc_malloc` (null for 0 bytes).
pub fn malloc(bytes: usize) -> AccResult<usize> {
    let d = dev()?;
    let p = d.mem.malloc(bytes)?;
    if crate::prof::active() && p != 0 {
        crate::prof::emit(&crate::prof::Event { kind: acc_ev_alloc, device_type: d.ty.to_acc(), bytes, device_ptr: p, ..Default::default() });
    }
    Ok(p)
}

/// `acc_free` (null: no action).
pub fn free(p: usize) -> AccResult<()> {
    if p == 0 {
        return Ok(());
    }
    let d = dev()?;
    d.mem.free(p);
    if crate::prof::active() {
        crate::prof::emit(&crate::prof::Event { kind: acc_ev_free, device_type: d.ty.to_acc(), device_ptr: p, ..Default::default() });
    }
    Ok(())
}

/// API byte counts: 0 means 1 for a non-null address; null with bytes is an error.
fn api_range(what: &str, h: usize, bytes: usize) -> AccResult<Option<usize>> {
    match (h, bytes) {
        (0, 0) => Ok(None),
        (0, _) => Err(AccError::null_pointer(what)),
        (_, 0) => Ok(Some(1)),
        (_, b) => Ok(Some(b)),
    }
}

fn api_enter(what: &str, c: Clause, h: usize, bytes: usize, a: i64) -> AccResult<usize> {
    let Some(b) = api_range(what, h, bytes)? else { return Ok(0) };
    data::enter(dev()?, c, h, b, 0, a, Ctx::api()).map_err(|e| rename(e, what))
}

fn api_exit(what: &str, c: Clause, h: usize, bytes: usize, fl: i64, a: i64) -> AccResult<()> {
    let Some(b) = api_range(what, h, bytes)? else { return Ok(()) };
    data::exit(dev()?, c, h, b, fl, a, Ctx::api()).map_err(|e| rename(e, what))
}

/// Messages name the routine rather than the clause.
fn rename(mut e: AccError, what: &str) -> AccError {
    if let Some((_, rest)) = e.message.split_once(':') {
        e.message = format!("{what}:{rest}");
    }
    e
}

/// `acc_copyin` / `acc_copyin_async` (returns the device address).
pub fn copyin(h: usize, bytes: usize, a: i64) -> AccResult<usize> {
    api_enter("acc_copyin", Clause::CopyIn, h, bytes, a)
}

/// `acc_create` / `acc_create_async`.
pub fn create(h: usize, bytes: usize, a: i64) -> AccResult<usize> {
    api_enter("acc_create", Clause::Create, h, bytes, a)
}

/// `acc_copyout` (`finalize`: `acc_copyout_finalize`), with async.
pub fn copyout(h: usize, bytes: usize, finalize: bool, a: i64) -> AccResult<()> {
    let what = if finalize { "acc_copyout_finalize" } else { "acc_copyout" };
    api_exit(what, Clause::CopyOut, h, bytes, if finalize { flags::FINALIZE } else { 0 }, a)
}

/// `acc_delete` (`finalize`: `acc_delete_finalize`), with async.
pub fn delete(h: usize, bytes: usize, finalize: bool, a: i64) -> AccResult<()> {
    let what = if finalize { "acc_delete_finalize" } else { "acc_delete" };
    api_exit(what, Clause::Delete, h, bytes, if finalize { flags::FINALIZE } else { 0 }, a)
}

/// `acc_update_device` / `acc_update_self` (+ async).
pub fn update(to_device: bool, h: usize, bytes: usize, a: i64) -> AccResult<()> {
    let what = if to_device { "acc_update_device" } else { "acc_update_self" };
    let Some(b) = api_range(what, h, bytes)? else { return Ok(()) };
    data::update(dev()?, to_device, h, b, 0, a, Ctx::api()).map_err(|e| rename(e, what))
}

/// `acc_map_data`: `h` now has device copy `d` (dynamic count 1).
pub fn map_data(h: usize, d: usize, bytes: usize) -> AccResult<()> {
    if h == 0 || d == 0 {
        return Err(AccError::null_pointer("acc_map_data"));
    }
    let dv = dev()?;
    let b = bytes.max(1);
    let mut t = dv.table();
    if t.lookup(h, b) != crate::present::Lookup::NotPresent {
        return Err(AccError::new(acc_error_present, format!("acc_map_data: host data is already present ({h:#x}, {b} bytes)")).with_range(h, b));
    }
    t.insert(crate::present::Entry { host: h, bytes: b, dev: d, structured: 0, dynamic: 1, mapped: true });
    Ok(())
}

/// `acc_unmap_data`: removes a mapping made by `acc_map_data` (memory kept).
pub fn unmap_data(h: usize) -> AccResult<()> {
    if h == 0 {
        return Err(AccError::null_pointer("acc_unmap_data"));
    }
    let dv = dev()?;
    let mut t = dv.table();
    let e = t.find(h, 1).cloned().ok_or_else(|| AccError::not_present("acc_unmap_data", h, 1, dv.name()))?;
    if !e.mapped || e.host != h {
        return Err(AccError::new(acc_error_invalid_argument, format!("acc_unmap_data: {h:#x} was not mapped by acc_map_data")));
    }
    if e.structured != 0 {
        return Err(AccError::new(acc_error_present, "acc_unmap_data: the data is in use by a data region").with_range(e.host, e.bytes));
    }
    t.remove(h);
    Ok(())
}

/// `acc_deviceptr`: 0 when not present.
pub fn deviceptr(h: usize) -> AccResult<usize> {
    if h == 0 {
        return Ok(0);
    }
    Ok(dev()?.table().find(h, 1).map_or(0, |e| e.dev_of(h)))
}

/// `acc_hostptr`: 0 when not a device copy.
pub fn hostptr(d: usize) -> AccResult<usize> {
    if d == 0 {
        return Ok(0);
    }
    Ok(dev()?.table().host_of(d).unwrap_or(0))
}

/// `acc_is_present` (bytes 0: is the address present).
pub fn is_present(h: usize, bytes: usize) -> AccResult<bool> {
    if h == 0 {
        return Ok(false);
    }
    Ok(dev()?.table().covers(h, bytes))
}

/// The attachment count of the pointer stored at `ptr_addr` (0 if not attached).
pub fn attach_count(ptr_addr: usize) -> AccResult<u64> {
    Ok(dev()?.table().attachment(ptr_addr).map_or(0, |a| a.count))
}

/// Structured and dynamic counts of present data (for tests and Python).
pub fn ref_counts(h: usize, bytes: usize) -> AccResult<Option<(u64, u64)>> {
    Ok(data::counts(dev()?, h, bytes.max(1)))
}

fn memcpy_args(what: &str, a: usize, b: usize, bytes: usize, async_: i64) -> AccResult<Option<(&'static Device, Option<i64>)>> {
    let q = queue::resolve(async_)?;
    if bytes == 0 {
        return Ok(None);
    }
    if a == 0 || b == 0 {
        return Err(AccError::null_pointer(what));
    }
    Ok(Some((dev()?, q)))
}

fn on_queue(d: &'static Device, q: Option<i64>, f: impl FnOnce() + Send + 'static) {
    match q {
        None => f(),
        Some(v) => d.queues.submit(v, Box::new(f)),
    }
}

/// `acc_memcpy_to_device` (+ async).
pub fn memcpy_to_device(dst: usize, src: usize, bytes: usize, a: i64) -> AccResult<()> {
    let Some((d, q)) = memcpy_args("acc_memcpy_to_device", dst, src, bytes, a)? else { return Ok(()) };
    on_queue(d, q, move || unsafe { d.mem.copy_to(dst, src as *const u8, bytes) });
    Ok(())
}

/// `acc_memcpy_from_device` (+ async).
pub fn memcpy_from_device(dst: usize, src: usize, bytes: usize, a: i64) -> AccResult<()> {
    let Some((d, q)) = memcpy_args("acc_memcpy_from_device", dst, src, bytes, a)? else { return Ok(()) };
    on_queue(d, q, move || unsafe { d.mem.copy_from(dst as *mut u8, src, bytes) });
    Ok(())
}

/// `acc_memcpy_device` (+ async).
pub fn memcpy_device(dst: usize, src: usize, bytes: usize, a: i64) -> AccResult<()> {
    let Some((d, q)) = memcpy_args("acc_memcpy_device", dst, src, bytes, a)? else { return Ok(()) };
    on_queue(d, q, move || unsafe { d.mem.copy_within(dst, src, bytes) });
    Ok(())
}

/// `acc_memcpy_d2d` (+ async on the source device's queue): copies the
/// device copy of present host data `src` on device `src_num` to that of
/// `dst` on device `dst_num` (both of the current type).
pub fn memcpy_d2d(dst: usize, src: usize, bytes: usize, dst_num: i32, src_num: i32, a: i64) -> AccResult<()> {
    let q = queue::resolve(a)?;
    if bytes == 0 {
        return Ok(());
    }
    if dst == 0 || src == 0 {
        return Err(AccError::null_pointer("acc_memcpy_d2d"));
    }
    let dd = dev_num(dst_num)?;
    let sd = dev_num(src_num)?;
    let find = |d: &Device, h: usize| -> AccResult<usize> {
        let t = d.table();
        match t.lookup(h, bytes) {
            crate::present::Lookup::Present(k) => Ok(t.get(k).map_or(h, |e| e.dev_of(h))),
            crate::present::Lookup::Partly(s, b) => Err(AccError::partly_present("acc_memcpy_d2d", h, bytes, (s, b), d.name())),
            _ => Err(AccError::not_present("acc_memcpy_d2d", h, bytes, d.name())),
        }
    };
    let ddev = find(dd, dst)?;
    let sdev = find(sd, src)?;
    if !std::ptr::eq(dd, sd) && crate::nvidia::peer_copy(dd, ddev, sd, sdev, bytes)? {
        return Ok(());
    }
    on_queue(sd, q, move || unsafe {
        if std::ptr::eq(dd, sd) {
            sd.mem.copy_within(ddev, sdev, bytes)
        } else if dd.mem.is_shared() && sd.mem.is_shared() {
            std::ptr::copy(sdev as *const u8, ddev as *mut u8, bytes)
        } else {
            // Two devices, one at least discrete: through host memory.
            let mut staging = vec![0u8; bytes];
            sd.mem.copy_from(staging.as_mut_ptr(), sdev, bytes);
            dd.mem.copy_to(ddev, staging.as_ptr(), bytes);
        }
    });
    Ok(())
}

/// `acc_attach` (+ async).
pub fn attach(ptr_addr: usize, a: i64) -> AccResult<()> {
    data::attach(dev()?, ptr_addr, 0, a, Ctx::api())
}

/// `acc_detach` / `acc_detach_finalize` (+ async).
pub fn detach(ptr_addr: usize, finalize: bool, a: i64) -> AccResult<()> {
    data::detach(dev()?, ptr_addr, if finalize { flags::FINALIZE } else { 0 }, a, Ctx::api())
}

/// A data clause's entry action (`flags::STRUCTURED` for data regions),
/// e.g. for Python's `with acc.data(copyin=[a])`. Returns the device address.
pub fn data_enter(clause: Clause, h: usize, bytes: usize, fl: i64, a: i64, name: Option<&str>, loc: Option<&str>) -> AccResult<usize> {
    let construct = if fl & flags::STRUCTURED != 0 { acc_construct_data } else { acc_construct_enter_data };
    data::enter(dev()?, clause, h, bytes, fl, a, Ctx::directive(name, loc, construct))
}

/// A data clause's exit action.
pub fn data_exit(clause: Clause, h: usize, bytes: usize, fl: i64, a: i64, name: Option<&str>, loc: Option<&str>) -> AccResult<()> {
    let construct = if fl & flags::STRUCTURED != 0 { acc_construct_data } else { acc_construct_exit_data };
    data::exit(dev()?, clause, h, bytes, fl, a, Ctx::directive(name, loc, construct))
}

/// `host_data use_device`: the device address of present data (`if_present`:
/// the host address when absent).
pub fn use_device(h: usize, if_present: bool) -> AccResult<usize> {
    data::use_device(dev()?, h, if_present, Ctx::directive(None, None, acc_construct_host_data))
}

/// The `update` directive for one variable (`flags::IF_PRESENT` honoured).
pub fn update_directive(to_device: bool, h: usize, bytes: usize, fl: i64, a: i64, name: Option<&str>, loc: Option<&str>) -> AccResult<()> {
    data::update(dev()?, to_device, h, bytes, fl, a, Ctx::directive(name, loc, acc_construct_update))
}
