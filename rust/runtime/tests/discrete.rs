//! The data environment on discrete memory, without a GPU: the host device
//! with `ACCJIT_DISCRETE_HOST` keeps every device copy in a separate block
//! (`memory::SeparateMemory`, filled with junk), so these tests see exactly
//! which copies the data actions make and to which addresses — the logic
//! the nvidia device relies on (counts, errors, copies, attach, map_data,
//! deviceptr/hostptr, memcpy, async) — and that a launch never passes a
//! host address to such a device (issue 9 A.5).

use accjit_runtime::api::{self, flags::*};
use accjit_runtime::consts::*;
use accjit_runtime::{compute, data, device, Clause, KernelSlot, LaunchOpts, PARAM_DEVICE_ADDR, PARAM_SNAPSHOT, PARAM_VALUE};
use std::sync::Once;

const SYNC: i64 = acc_async_sync;

fn discrete() -> &'static device::Device {
    static ENV: Once = Once::new();
    ENV.call_once(|| {
        std::env::set_var("ACCJIT_DISCRETE_HOST", "1");
        std::env::set_var("ACC_DEVICE_TYPE", "host");
    });
    let d = device::current_device().unwrap();
    assert_eq!(d.ty, device::DeviceType::Host);
    assert!(!d.mem.is_shared(), "ACCJIT_DISCRETE_HOST makes the host device discrete");
    d
}

/// The bytes of the device copy at `dev`.
fn device_bytes<T: Copy + Default>(d: &device::Device, dev: usize, n: usize) -> Vec<T> {
    let mut v = vec![T::default(); n];
    unsafe { d.mem.copy_from(v.as_mut_ptr() as *mut u8, dev, n * std::mem::size_of::<T>()) };
    v
}

fn floats(n: usize, seed: f32) -> Vec<f32> {
    (0..n).map(|i| seed + (i as f32) * 0.5 - (i % 7) as f32).collect()
}

#[test]
fn copyin_update_copyout_really_copy() {
    let d = discrete();
    let mut a = floats(100, 3.0);
    let h = a.as_mut_ptr() as usize;
    let dev = api::copyin(h, 400, SYNC).unwrap();
    assert_ne!(dev, h, "a discrete device has its own copy");
    assert_eq!(api::deviceptr(h + 8).unwrap(), dev + 8);
    assert_eq!(api::hostptr(dev + 8).unwrap(), h + 8);
    assert_eq!(device_bytes::<f32>(d, dev, 100), a, "copyin copied the host data");
    // the host changes: the device copy does not, until update device
    a[5] = -1.0;
    assert_eq!(device_bytes::<f32>(d, dev + 20, 1)[0], floats(100, 3.0)[5]);
    api::update(true, h + 20, 4, SYNC).unwrap();
    assert_eq!(device_bytes::<f32>(d, dev + 20, 1)[0], -1.0);
    // the device changes: the host does not, until update self / copyout
    let new = [9.0f32; 100];
    unsafe { d.mem.copy_to(dev, new.as_ptr() as *const u8, 400) };
    assert_eq!(a[0], 3.0);
    api::update(false, h, 8, SYNC).unwrap();
    assert_eq!(&a[..3], &[9.0, 9.0, floats(100, 3.0)[2]]);
    api::copyout(h, 400, false, SYNC).unwrap();
    assert!(a.iter().all(|&x| x == 9.0));
    assert!(!api::is_present(h, 400).unwrap());
    assert_eq!(api::deviceptr(h).unwrap(), 0);
}

#[test]
fn create_copies_nothing_and_counts_match_shared_memory() {
    let d = discrete();
    let mut a = vec![1u8; 64];
    let h = a.as_mut_ptr() as usize;
    let dev = data::enter(d, Clause::Create, h, 64, STRUCTURED, SYNC, data::Ctx::directive(Some("a"), None, acc_construct_data)).unwrap();
    assert!(device_bytes::<u8>(d, dev, 64).iter().all(|&b| b == accjit_runtime::memory::JUNK), "create does not copy in");
    data::enter(d, Clause::Copy, h, 64, STRUCTURED, SYNC, data::Ctx::directive(Some("a"), None, acc_construct_data)).unwrap();
    assert_eq!(api::ref_counts(h, 64).unwrap(), Some((2, 0)));
    let e = data::enter(d, Clause::Present, h + 60, 8, STRUCTURED, SYNC, data::Ctx::directive(Some("a[60:8]"), Some("t.c:3"), acc_construct_data)).unwrap_err();
    assert_eq!(e.code, acc_error_partly_present);
    data::exit(d, Clause::Copy, h, 64, STRUCTURED, SYNC, data::Ctx::directive(None, None, acc_construct_data)).unwrap();
    assert_eq!(a[0], 1, "copy's exit at count 1 does not copy back");
    data::exit(d, Clause::Create, h, 64, STRUCTURED, SYNC, data::Ctx::directive(None, None, acc_construct_data)).unwrap();
    assert!(!api::is_present(h, 1).unwrap());
    a[0] = 2;
    let e = api::update(true, h, 64, SYNC).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
}

#[test]
fn malloc_map_data_and_memcpy_between_distinct_addresses() {
    let _d = discrete();
    let mut a = floats(32, 1.0);
    let h = a.as_mut_ptr() as usize;
    let dm = api::malloc(128).unwrap();
    assert_ne!(dm, 0);
    api::memcpy_to_device(dm, h, 128, SYNC).unwrap();
    api::map_data(h, dm, 128).unwrap();
    assert_eq!(api::deviceptr(h + 4).unwrap(), dm + 4);
    assert_eq!(api::hostptr(dm + 4).unwrap(), h + 4);
    a.iter_mut().for_each(|x| *x = 0.0);
    api::update(false, h, 128, SYNC).unwrap();
    assert_eq!(a, floats(32, 1.0), "update self reads the mapped memory");
    let e = api::map_data(h + 4, dm, 4).unwrap_err();
    assert_eq!(e.code, acc_error_present);
    api::unmap_data(h).unwrap();
    assert!(!api::is_present(h, 1).unwrap());
    let mut back = vec![0f32; 32];
    let dm2 = api::malloc(128).unwrap();
    api::memcpy_device(dm2, dm, 128, SYNC).unwrap();
    api::memcpy_from_device(back.as_mut_ptr() as usize, dm2, 128, SYNC).unwrap();
    assert_eq!(back, floats(32, 1.0), "unmap keeps the memory; memcpy_device copies it");
    api::free(dm).unwrap();
    api::free(dm2).unwrap();
}

#[repr(C)]
struct Holder {
    n: i64,
    p: *mut f32,
}

#[test]
fn attach_writes_the_device_address_into_the_device_copy() {
    let d = discrete();
    let mut x = floats(16, 2.0);
    let mut s = Holder { n: 16, p: x.as_mut_ptr() };
    let sh = &mut s as *mut Holder as usize;
    let pp = sh + 8;
    let sdev = api::copyin(sh, 16, SYNC).unwrap();
    assert_eq!(device_bytes::<usize>(d, sdev + 8, 1)[0], x.as_ptr() as usize, "copied verbatim: the host pointer");
    let xdev = api::copyin(x.as_mut_ptr() as usize, 64, SYNC).unwrap();
    api::attach(pp, SYNC).unwrap();
    assert_eq!(device_bytes::<usize>(d, sdev + 8, 1)[0], xdev, "attached: the device copy points at the device copy");
    assert_eq!(s.p, x.as_mut_ptr(), "the host struct is untouched");
    assert_eq!(api::attach_count(pp).unwrap(), 1);
    api::attach(pp, SYNC).unwrap();
    assert_eq!(api::attach_count(pp).unwrap(), 2);
    api::detach(pp, false, SYNC).unwrap();
    assert_eq!(device_bytes::<usize>(d, sdev + 8, 1)[0], xdev);
    api::detach(pp, false, SYNC).unwrap();
    assert_eq!(device_bytes::<usize>(d, sdev + 8, 1)[0], x.as_ptr() as usize, "detached: the host value again");
    api::copyout(sh, 16, false, SYNC).unwrap();
    assert_eq!(s.p, x.as_mut_ptr(), "copyout after detach brings back a valid host pointer");
    assert_eq!(s.n, 16);
    api::delete(x.as_mut_ptr() as usize, 64, false, SYNC).unwrap();
}

#[test]
fn async_copies_land_after_wait() {
    let d = discrete();
    let mut a: Vec<i32> = (0..1000).map(|i| i * 3 - 7).collect();
    let h = a.as_mut_ptr() as usize;
    let dev = api::copyin(h, 4000, 5).unwrap();
    api::wait(5).unwrap();
    assert_eq!(device_bytes::<i32>(d, dev, 1000), a);
    let twice: Vec<i32> = a.iter().map(|x| x * 2).collect();
    unsafe { d.mem.copy_to(dev, twice.as_ptr() as *const u8, 4000) };
    api::copyout(h, 4000, false, 6).unwrap();
    api::wait_all().unwrap();
    assert_eq!(a, twice);
}

/// `args[0]`: float *, `args[1]`: n — doubles the first n floats.
unsafe extern "C" fn double_it(args: *const u64, _g: i64, _n: i64) {
    let p = *args as *mut f32;
    for i in 0..*args.add(1) as usize {
        *p.add(i) *= 2.0;
    }
}

#[test]
fn launch_translates_present_data_and_refuses_host_addresses() {
    let d = discrete();
    let slot = KernelSlot::new("double_it".into(), vec![PARAM_DEVICE_ADDR, PARAM_VALUE], None);
    slot.set_host_fn(double_it as *const () as usize);
    slot.set_param_names(vec!["x".into(), "n".into()]);
    let mut x = floats(8, 1.0);
    let h = x.as_mut_ptr() as usize;
    // Nothing present: a not-present error naming the variable, never the host address.
    let mut args = [h as u64 + 4, 7];
    let e = d.compute.launch(d, &slot, &mut args, &LaunchOpts::default(), None).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
    assert_eq!(e.var.as_deref(), Some("x"));
    assert!(e.message.contains("double_it"), "{}", e.message);
    assert_eq!(x, floats(8, 1.0), "the kernel did not run on host data");
    // Present: the kernel gets the device address (of the element passed) and runs on the copy.
    let dev = api::copyin(h, 32, SYNC).unwrap();
    let mut args = [h as u64 + 4, 7];
    d.compute.launch(d, &slot, &mut args, &LaunchOpts::default(), None).unwrap();
    assert_eq!(args[0], dev as u64 + 4);
    assert_eq!(x, floats(8, 1.0), "host data untouched");
    api::copyout(h, 32, false, SYNC).unwrap();
    let want: Vec<f32> = floats(8, 1.0).iter().enumerate().map(|(i, v)| if i == 0 { *v } else { v * 2.0 }).collect();
    assert_eq!(x, want);
    // A null pointer stays null; a snapshot (firstprivate) is read where it is.
    let snap = KernelSlot::new("snap".into(), vec![PARAM_SNAPSHOT, PARAM_VALUE], None);
    let mut a2 = [0u64, 0];
    assert!(compute::translate_args(d, &snap, &mut a2, true).is_ok());
    let mut a3 = [h as u64, 8];
    compute::translate_args(d, &snap, &mut a3, true).unwrap();
    assert_eq!(a3[0], h as u64, "snapshots are staged by the device, not translated");
}

#[test]
fn deep_copy_attaches_rows_on_discrete_memory() {
    let d = discrete();
    let mut rows: Vec<Vec<f64>> = (0..3).map(|r| (0..4).map(|c| (r * 10 + c) as f64).collect()).collect();
    let mut ptrs: Vec<*mut f64> = rows.iter_mut().map(|r| r.as_mut_ptr()).collect();
    let base = ptrs.as_mut_ptr() as usize;
    let levels = [accjit_runtime::deep::Level { lower: 0, length: 3, size: 8 }, accjit_runtime::deep::Level { lower: 0, length: 4, size: 8 }];
    let ctx = data::Ctx::directive(Some("m"), None, acc_construct_enter_data);
    accjit_runtime::deep::deep(d, accjit_runtime::deep::DeepOp::Enter, Clause::CopyIn, base, &levels, 0, SYNC, ctx).unwrap();
    let pdev = api::deviceptr(base).unwrap();
    let row_devs = device_bytes::<usize>(d, pdev, 3);
    for (r, &rd) in row_devs.iter().enumerate() {
        assert_eq!(rd, api::deviceptr(ptrs[r] as usize).unwrap(), "row {r} attached");
        assert_ne!(rd, ptrs[r] as usize);
        assert_eq!(device_bytes::<f64>(d, rd, 4), rows[r]);
    }
    accjit_runtime::deep::deep(d, accjit_runtime::deep::DeepOp::Exit, Clause::CopyIn, base, &levels, 0, SYNC, ctx).unwrap();
    assert!(!api::is_present(base, 24).unwrap());
    assert_eq!(ptrs[1], rows[1].as_mut_ptr());
}

#[test]
fn no_create_of_absent_data_lets_a_region_name_it() {
    let d = discrete();
    let slot = KernelSlot::new("names_it".into(), vec![PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["a".into()]);
    let mut a = vec![3i32; 50];
    let h = a.as_mut_ptr() as usize;
    let ctx = data::Ctx::directive(Some("a[0:50]"), None, acc_construct_parallel);
    // Inside a region with no_create(a[0:50]) of absent data: the host address passes (unused by the kernel).
    assert_eq!(data::enter(d, Clause::NoCreate, h, 200, STRUCTURED, SYNC, ctx).unwrap(), h);
    let mut args = [h as u64 + 40];
    compute::translate_args(d, &slot, &mut args, true).unwrap();
    assert_eq!(args[0], h as u64 + 40);
    assert!(!api::is_present(h, 200).unwrap(), "no_create creates nothing");
    data::exit(d, Clause::NoCreate, h, 200, STRUCTURED, SYNC, ctx).unwrap();
    // After the region: a not-present error again.
    let mut args = [h as u64 + 40];
    assert_eq!(compute::translate_args(d, &slot, &mut args, true).unwrap_err().code, acc_error_not_present);
    // A zero-length section of absent data: the same.
    data::enter(d, Clause::CopyIn, h, 0, STRUCTURED, SYNC, ctx).unwrap();
    let mut args = [h as u64];
    compute::translate_args(d, &slot, &mut args, true).unwrap();
    data::exit(d, Clause::CopyIn, h, 0, STRUCTURED, SYNC, ctx).unwrap();
    let mut args = [h as u64];
    assert!(compute::translate_args(d, &slot, &mut args, true).is_err());
    a[0] = 4;
}

#[test]
fn a_pointer_to_its_array_stands_for_the_section_its_clause_made_present() {
    let d = discrete();
    let slot = KernelSlot::new("k".into(), vec![PARAM_DEVICE_ADDR], None);
    slot.set_param_names(vec!["a".into()]);
    let mut a = vec![0i32; 1000];
    let h = a.as_mut_ptr() as usize;
    let ctx = |n| data::Ctx::directive(Some(n), None, acc_construct_data);
    let lo = data::enter(d, Clause::Copy, h, 1000, STRUCTURED, SYNC, ctx("a[0:250]")).unwrap();
    let hi = data::enter(d, Clause::Copy, h + 2000, 1000, STRUCTURED, SYNC, ctx("a[500:250]")).unwrap();
    // The innermost clause on `a` is a[500:250]: `a` (inside a[0:250]) gets that section's bias.
    let mut args = [h as u64];
    compute::translate_args(d, &slot, &mut args, true).unwrap();
    assert_eq!(args[0], (hi - 2000) as u64);
    data::exit(d, Clause::Copy, h + 2000, 1000, STRUCTURED, SYNC, ctx("a[500:250]")).unwrap();
    let mut args = [h as u64];
    compute::translate_args(d, &slot, &mut args, true).unwrap();
    assert_eq!(args[0], lo as u64, "a[0:250] is the clause in force again");
    // Another variable pointing below a present section of no clause of its own: an error.
    let other = KernelSlot::new("k2".into(), vec![PARAM_DEVICE_ADDR], None);
    other.set_param_names(vec!["b".into()]);
    let mut b = vec![0i32; 8];
    let mut args = [b.as_mut_ptr() as u64];
    assert_eq!(compute::translate_args(d, &other, &mut args, true).unwrap_err().code, acc_error_not_present);
    data::exit(d, Clause::Copy, h, 1000, STRUCTURED, SYNC, ctx("a[0:250]")).unwrap();
    b[0] = 1;
}
