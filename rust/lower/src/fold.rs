//! Folding of `acc_on_device(dev)` inside compute regions. (Reduction
//! identities are defined once, in `accjit_ir::reduce`.)
//!
//! A region compiled for device type D runs on D, so `acc_on_device` with a
//! constant argument folds to a constant. Choice for the CPU devices (the
//! behaviour of nvc with `-acc=multicore`): on `multicore` (and `host`) the
//! region runs on the host CPU, so `acc_device_host` is 1 and
//! `acc_device_not_host` is 0; `acc_device_multicore` is 1 on `multicore`
//! only. Calls with a non-constant argument, and calls in host code or in
//! `routine` functions (which the host may also call), are left to the
//! runtime routine.
//!
//! A program compiled for a GPU type (`nvidia`, `opencl`, `radeon`) carries
//! two forms of each kernel — the GPU one and the CPU one that `if(false)`,
//! `self` and the host/multicore devices run — so its kernels' calls are not
//! folded here: each back end answers for where its form runs (the PTX back
//! end with the GPU's constant, the CPU form through the runtime routine,
//! which knows the device running the gang).

use crate::build::const_int;
use crate::cx::{device_type_code, Cx};
use accjit_ir::*;

/// The folded value of `acc_on_device(args[0])` for the target, if `id` is
/// `acc_on_device` and the argument is constant.
pub fn acc_on_device(cx: &Cx, f: &Function, id: ExternId, args: &[ExprId]) -> Option<i64> {
    if cx.module.externs.get(id.index())?.name != "acc_on_device" {
        return None;
    }
    let arg = const_int(f, *args.first()?)?;
    let (host, multicore) = (accjit_abi::acc_device_host as i64, accjit_abi::acc_device_multicore as i64);
    let me = device_type_code(&cx.opts.device_type).unwrap_or(multicore);
    if me != host && me != multicore {
        return None;
    }
    Some(on_device_value(&cx.opts.device_type, arg))
}

/// `acc_on_device(arg)` inside a region compiled for `device`.
pub fn on_device_value(device: &str, arg: i64) -> i64 {
    use accjit_abi::{acc_device_host, acc_device_multicore, acc_device_not_host};
    let (host, multicore) = (acc_device_host as i64, acc_device_multicore as i64);
    let me = device_type_code(device).unwrap_or(multicore);
    let host_like = me == host || me == multicore;
    let v = match arg {
        a if a == host => host_like,
        a if a == acc_device_not_host as i64 => !host_like,
        _ => arg == me,
    };
    v as i64
}
