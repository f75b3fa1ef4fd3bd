//! The `__accjit_*` entry points that generated host code calls for
//! OpenACC constructs (docs/runtime-abi.md): launches, data clauses,
//! `update`, `host_data`, attach/detach, `wait`, `init`, `shutdown`, `set`.
//! Each decodes its C arguments, calls the safe layer, and ends the program
//! through `error::fatal` on error.

#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

use crate::consts::*;
use crate::data::{self, flags, Clause, Ctx};
use crate::deep;
use crate::device::{self, DeviceType};
use crate::error::{cstr, fatal, or_fatal, AccError, AccResult};
use crate::launch::{self, KernelSlot, LaunchOpts};
use crate::prof::{self, Event};
use crate::queue;
use std::ffi::{c_char, c_void};

#[no_mangle]
pub unsafe extern "C" fn __accjit_launch(
    slot: *const KernelSlot,
    args: *mut u64,
    nargs: i64,
    num_gangs: i64,
    num_workers: i64,
    vector_length: i64,
    async_: i64,
    wait: *const i64,
    nwait: i64,
    flags: i64,
    loc: *const c_char,
) {
    let loc = cstr(loc);
    if slot.is_null() {
        fatal(&AccError::new(acc_error_other, "launch of a kernel with no slot").with_loc(loc));
    }
    let args: &mut [u64] = if args.is_null() || nargs <= 0 { &mut [] } else { std::slice::from_raw_parts_mut(args, nargs as usize) };
    let wait: Option<&[i64]> = match nwait {
        n if n < 0 => None,
        0 => Some(&[]),
        n if wait.is_null() => {
            let _ = n;
            Some(&[])
        }
        n => Some(std::slice::from_raw_parts(wait, n as usize)),
    };
    let o = LaunchOpts { num_gangs, num_workers, vector_length, async_, wait, local: flags & accjit_abi::LAUNCH_LOCAL != 0, loc };
    or_fatal(launch::launch(&*slot, args, &o))
}

fn clause(kind: i64, loc: Option<&str>) -> Clause {
    match Clause::from_i64(kind) {
        Some(c) => c,
        None => fatal(&AccError::new(acc_error_other, format!("unknown data clause kind {kind}")).with_loc(loc)),
    }
}

fn bytes_of(bytes: i64, name: Option<&str>, loc: Option<&str>) -> usize {
    if bytes < 0 {
        fatal(&AccError::new(acc_error_invalid_data_section, format!("array section of negative length ({bytes} bytes)")).with_var(name).with_loc(loc));
    }
    bytes as usize
}

fn data_ctx<'a>(fl: i64, enter: bool, name: Option<&'a str>, loc: Option<&'a str>) -> Ctx<'a> {
    let construct = match (fl & flags::STRUCTURED != 0, enter) {
        (true, _) => acc_construct_data,
        (false, true) => acc_construct_enter_data,
        (false, false) => acc_construct_exit_data,
    };
    Ctx::directive(name, loc, construct)
}

/// Runs `f` between `start`/`end` events of the current device.
fn bracketed<T>(start: i32, end: i32, ctx: &Ctx, async_: i64, f: impl FnOnce() -> AccResult<T>) -> AccResult<T> {
    if !prof::active() {
        return f();
    }
    let ty = device::current_type();
    let ev = |kind, tool_info| Event {
        kind,
        construct: ctx.construct,
        implicit: ctx.implicit,
        device_type: ty.to_acc(),
        device_num: device::current_num(ty) as i32,
        async_,
        var: ctx.name,
        loc: ctx.loc,
        tool_info,
        ..Event::default()
    };
    let t = prof::emit(&ev(start, 0));
    let r = f();
    prof::emit(&ev(end, t));
    r
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_data_enter(kind: i64, addr: *mut c_void, bytes: i64, fl: i64, async_: i64, name: *const c_char, loc: *const c_char) {
    let (name, loc) = (cstr(name), cstr(loc));
    let c = clause(kind, loc);
    let b = bytes_of(bytes, name, loc);
    let ctx = data_ctx(fl, true, name, loc);
    or_fatal(bracketed(acc_ev_enter_data_start, acc_ev_enter_data_end, &ctx, async_, || {
        data::enter(device::current_device().map_err(|e| ctx.err_at(e))?, c, addr as usize, b, fl, async_, ctx).map(|_| ())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_data_exit(kind: i64, addr: *mut c_void, bytes: i64, fl: i64, async_: i64, name: *const c_char, loc: *const c_char) {
    let (name, loc) = (cstr(name), cstr(loc));
    let c = clause(kind, loc);
    let b = bytes_of(bytes, name, loc);
    let ctx = data_ctx(fl, false, name, loc);
    or_fatal(bracketed(acc_ev_exit_data_start, acc_ev_exit_data_end, &ctx, async_, || {
        data::exit(device::current_device().map_err(|e| ctx.err_at(e))?, c, addr as usize, b, fl, async_, ctx)
    }))
}

/// A deep section (`a[0:n][0:m]` on `T **`; see `deep.rs`). `op`: 0 enter,
/// 1 exit, 2 `update self`, 3 `update device`. `base` is the address of
/// element 0 of level 0; `lowers`, `lengths`, `sizes` have `nlevels` entries.
#[no_mangle]
pub unsafe extern "C" fn __accjit_deep(
    op: i64,
    kind: i64,
    base: *mut c_void,
    nlevels: i64,
    lowers: *const i64,
    lengths: *const i64,
    sizes: *const i64,
    fl: i64,
    async_: i64,
    name: *const c_char,
    loc: *const c_char,
) {
    let (name, loc) = (cstr(name), cstr(loc));
    let c = clause(kind, loc);
    if nlevels <= 0 || lowers.is_null() || lengths.is_null() || sizes.is_null() {
        return;
    }
    let n = nlevels as usize;
    let (lo, le, sz) = (std::slice::from_raw_parts(lowers, n), std::slice::from_raw_parts(lengths, n), std::slice::from_raw_parts(sizes, n));
    let levels: Vec<deep::Level> = (0..n).map(|k| deep::Level { lower: lo[k], length: le[k], size: sz[k] }).collect();
    let run = |dop, ctx: Ctx| deep::deep(device::current_device().map_err(|e| ctx.err_at(e))?, dop, c, base as usize, &levels, fl, async_, ctx);
    or_fatal(match op {
        accjit_abi::deep_op::ENTER => {
            let ctx = data_ctx(fl, true, name, loc);
            bracketed(acc_ev_enter_data_start, acc_ev_enter_data_end, &ctx, async_, || run(deep::DeepOp::Enter, ctx))
        }
        accjit_abi::deep_op::EXIT => {
            let ctx = data_ctx(fl, false, name, loc);
            bracketed(acc_ev_exit_data_start, acc_ev_exit_data_end, &ctx, async_, || run(deep::DeepOp::Exit, ctx))
        }
        // Each block's update brackets itself with update events.
        o => run(deep::DeepOp::Update(o == accjit_abi::deep_op::UPDATE_DEVICE), Ctx::directive(name, loc, acc_construct_update)),
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_update(to_device: i64, addr: *mut c_void, bytes: i64, fl: i64, async_: i64, name: *const c_char, loc: *const c_char) {
    let (name, loc) = (cstr(name), cstr(loc));
    let b = bytes_of(bytes, name, loc);
    let ctx = Ctx::directive(name, loc, acc_construct_update);
    or_fatal(device::current_device().map_err(|e| ctx.err_at(e)).and_then(|d| data::update(d, to_device != 0, addr as usize, b, fl, async_, ctx)))
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_use_device(addr: *mut c_void, if_present: i64, name: *const c_char, loc: *const c_char) -> *mut c_void {
    let (name, loc) = (cstr(name), cstr(loc));
    let ctx = Ctx::directive(name, loc, acc_construct_host_data);
    or_fatal(device::current_device().map_err(|e| ctx.err_at(e)).and_then(|d| data::use_device(d, addr as usize, if_present != 0, ctx))) as *mut c_void
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_attach(ptr_addr: *mut *mut c_void, fl: i64, async_: i64, name: *const c_char, loc: *const c_char) {
    let (name, loc) = (cstr(name), cstr(loc));
    let ctx = data_ctx(fl, true, name, loc);
    or_fatal(device::current_device().map_err(|e| ctx.err_at(e)).and_then(|d| data::attach(d, ptr_addr as usize, fl, async_, ctx)))
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_detach(ptr_addr: *mut *mut c_void, fl: i64, async_: i64, name: *const c_char, loc: *const c_char) {
    let (name, loc) = (cstr(name), cstr(loc));
    let ctx = data_ctx(fl, false, name, loc);
    or_fatal(device::current_device().map_err(|e| ctx.err_at(e)).and_then(|d| data::detach(d, ptr_addr as usize, fl, async_, ctx)))
}

/// The device `devnum` of the current type (-1: the current device).
fn device_for(devnum: i64) -> AccResult<&'static device::Device> {
    if devnum < 0 {
        return device::current_device();
    }
    let d = device::device_checked(device::current_type(), devnum as usize)?;
    d.ensure_init();
    Ok(d)
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_wait(devnum: i64, queues: *const i64, n: i64, async_: i64, loc: *const c_char) {
    let loc = cstr(loc);
    let qs: Option<&[i64]> = if n <= 0 || queues.is_null() { None } else { Some(std::slice::from_raw_parts(queues, n as usize)) };
    or_fatal(device_for(devnum).and_then(|d| queue::wait(d, qs, async_, loc, false)).map_err(|e| e.with_loc(loc)))
}

/// The device types a `device_type(...)` clause of `init`, `set` or
/// `shutdown` selects, from its names as written, comma-separated.
///
/// - No clause (empty list) or `*` among the names: `None`, every type.
/// - Otherwise the named types that have devices, in the order written;
///   `default` is the default device type (`acc_device_default`). A name
///   accjit does not know (`foo`, `xeonphi`) names a type that is not
///   supported; `nvidia`, `radeon`, `opencl` are known but have no devices.
/// - When every named type is unavailable: `acc_error_device_type_unavailable`
///   (OpenACC 3.3 §2.14, like `acc_init`/`acc_set_device_type`/`acc_shutdown`
///   of such a type, §3.2). A list is a set of acceptable types (portable
///   code names several), so one available type is enough.
pub fn selected_types(names: &str) -> AccResult<Option<Vec<DeviceType>>> {
    let names: Vec<&str> = names.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    if names.is_empty() || names.contains(&"*") {
        return Ok(None);
    }
    let mut avail = vec![];
    for n in &names {
        let ty = if n.eq_ignore_ascii_case("default") { device::resolve_type(acc_device_default) } else { DeviceType::parse(n) };
        if let Some(t) = ty.filter(|t| device::num_devices(*t) > 0) {
            if !avail.contains(&t) {
                avail.push(t);
            }
        }
    }
    if avail.is_empty() {
        let have: Vec<&str> = device::ALL_TYPES.iter().filter(|t| device::num_devices(**t) > 0).map(|t| t.name()).collect();
        return Err(AccError::new(
            acc_error_device_type_unavailable,
            format!("device type unavailable: device_type({}) names no available device type (available: {})", names.join(", "), have.join(", ")),
        ));
    }
    Ok(Some(avail))
}

/// The `init` directive. `device_types`: the clause's names (empty: no
/// clause); `devnum` -1: no `device_num`. Initialises the selected devices
/// (all devices of the selected types, or device `devnum` of each) and sets
/// *acc-current-device-type-var* to the first selected type (unchanged
/// without a clause or with `*`) and *acc-current-device-num-var* when
/// `devnum` is given.
#[no_mangle]
pub unsafe extern "C" fn __accjit_init(device_types: *const c_char, devnum: i64, loc: *const c_char) {
    let loc = cstr(loc);
    let names = cstr(device_types).unwrap_or("");
    let r = (|| -> AccResult<()> {
        device::ensure_env();
        let selected = selected_types(names)?;
        let tys = selected.clone().unwrap_or_else(|| match devnum {
            // `init device_num(n)`: device n of the current type.
            n if n >= 0 => vec![device::current_type()],
            _ => device::ALL_TYPES.into_iter().filter(|t| device::num_devices(*t) > 0).collect(),
        });
        for &ty in &tys {
            if devnum >= 0 {
                device::device_checked(ty, devnum as usize)?.ensure_init();
            } else {
                device::devices_of(ty).for_each(|d| d.ensure_init());
            }
        }
        if let Some(&ty) = selected.as_ref().and_then(|v| v.first()) {
            device::set_current_type(ty)?;
        }
        if devnum >= 0 {
            device::set_current_num(tys.first().copied().unwrap_or_else(device::current_type), devnum as i32)?;
        }
        Ok(())
    })();
    or_fatal(r.map_err(|e| e.with_loc(loc)))
}

/// The `shutdown` directive: the selected devices (as for `init`) wait for
/// their queues, drop their present data and become uninitialised; a
/// `device_num` that is not a device of a selected type is
/// `acc_error_device_unavailable`.
#[no_mangle]
pub unsafe extern "C" fn __accjit_shutdown(device_types: *const c_char, devnum: i64, loc: *const c_char) {
    let loc = cstr(loc);
    let names = cstr(device_types).unwrap_or("");
    let r = (|| -> AccResult<()> {
        device::ensure_env();
        let tys = selected_types(names)?.unwrap_or_else(|| match devnum {
            n if n >= 0 => vec![device::current_type()],
            _ => device::ALL_TYPES.into_iter().filter(|t| device::num_devices(*t) > 0).collect(),
        });
        for ty in tys {
            if devnum >= 0 {
                device::device_checked(ty, devnum as usize)?.shutdown();
            } else {
                device::devices_of(ty).for_each(|d| d.shutdown());
            }
        }
        Ok(())
    })();
    or_fatal(r.map_err(|e| e.with_loc(loc)))
}

/// `default_async` argument of [`__accjit_set`] meaning "no `default_async` clause".
pub use accjit_abi::SET_UNSET;

/// The `set` directive. `device_types` as for [`__accjit_init`] (the first
/// available type named becomes current); `devnum` -1: no `device_num`;
/// `default_async` [`SET_UNSET`] (`i64::MIN`) means "not given";
/// `acc_async_default` (-3) restores the initial value.
#[no_mangle]
pub unsafe extern "C" fn __accjit_set(device_types: *const c_char, devnum: i64, default_async: i64, loc: *const c_char) {
    let loc = cstr(loc);
    let names = cstr(device_types).unwrap_or("");
    let r = (|| -> AccResult<()> {
        // `set device_type(*)` leaves the type as it is: every type is acceptable.
        let ty = match selected_types(names)?.and_then(|v| v.first().copied()) {
            Some(t) => {
                device::set_current_type(t)?;
                t
            }
            None => device::current_type(),
        };
        if devnum >= 0 {
            device::set_current_num(ty, devnum as i32)?;
        }
        if default_async != SET_UNSET {
            device::set_default_async(default_async)?;
        }
        Ok(())
    })();
    or_fatal(r.map_err(|e| e.with_loc(loc)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn device_type_lists_select_available_types_in_order() {
        assert_eq!(selected_types("").unwrap(), None);
        assert_eq!(selected_types("nvidia, *").unwrap(), None);
        assert_eq!(selected_types("host").unwrap(), Some(vec![DeviceType::Host]));
        assert_eq!(selected_types("default").unwrap(), Some(vec![device::default_type()]));
        let v = selected_types("quantum,radeon,multicore,host,multicore").unwrap();
        assert_eq!(v, Some(vec![DeviceType::Multicore, DeviceType::Host]));
        for none in ["nvidia", "opencl,radeon", "foo", "foo, bar"] {
            let e = selected_types(none).unwrap_err();
            assert_eq!(e.code, acc_error_device_type_unavailable, "{none}");
            assert!(e.to_string().contains("device type unavailable"), "{e}");
        }
    }
}
