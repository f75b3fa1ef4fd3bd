//! Deep copies (`deep.rs`) and attachment counters (§2.7.2): every row of a
//! `T**` section enters and is attached, exits in reverse; nested regions
//! count; pointer members attach once and count further attaches.

use accjit_runtime::consts::*;
use accjit_runtime::data::{self, flags, Clause, Ctx};
use accjit_runtime::deep::{deep, DeepOp, Level};
use accjit_runtime::{api, device};
use std::sync::Mutex;

static SERIAL: Mutex<()> = Mutex::new(());

fn ctx() -> Ctx<'static> {
    Ctx::directive(Some("a[0:n][0:m]"), Some("t.c:1"), acc_construct_data)
}

#[test]
fn two_level_sections_enter_attach_and_leave_in_reverse() {
    let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dev = device::current_device().unwrap();
    let (n, m) = (5usize, 7usize);
    let mut rows: Vec<Vec<f64>> = (0..n).map(|i| vec![i as f64; m]).collect();
    let ptrs: Vec<*mut f64> = rows.iter_mut().map(|r| r.as_mut_ptr()).collect();
    let base = ptrs.as_ptr() as usize;
    let levels = [Level { lower: 0, length: n as i64, size: 8 }, Level { lower: 0, length: m as i64, size: 8 }];
    let st = flags::STRUCTURED;
    for depth in 1..=2u64 {
        deep(dev, DeepOp::Enter, Clause::Copy, base, &levels, st, acc_async_sync, ctx()).unwrap();
        assert_eq!(api::ref_counts(base, n * 8).unwrap(), Some((depth, 0)));
        for (i, p) in ptrs.iter().enumerate() {
            assert!(api::is_present(*p as usize, m * 8).unwrap(), "row {i}");
            assert_eq!(api::attach_count(base + i * 8).unwrap(), depth, "row pointer {i}");
        }
    }
    deep(dev, DeepOp::Exit, Clause::Copy, base, &levels, st, acc_async_sync, ctx()).unwrap();
    assert!(api::is_present(ptrs[3] as usize, m * 8).unwrap(), "the outer region still holds the rows");
    assert_eq!(api::attach_count(base + 3 * 8).unwrap(), 1);
    deep(dev, DeepOp::Exit, Clause::Copy, base, &levels, st, acc_async_sync, ctx()).unwrap();
    assert!(!api::is_present(base, n * 8).unwrap());
    for (i, p) in ptrs.iter().enumerate() {
        assert!(!api::is_present(*p as usize, 8).unwrap(), "row {i} left");
        assert_eq!(api::attach_count(base + i * 8).unwrap(), 0);
    }
    // A sub-section of rows and columns, dynamic, then finalize.
    let sub = [Level { lower: 1, length: 3, size: 8 }, Level { lower: 2, length: 4, size: 8 }];
    deep(dev, DeepOp::Enter, Clause::CopyIn, base, &sub, 0, acc_async_sync, ctx()).unwrap();
    assert!(api::is_present(base + 8, 24).unwrap() && !api::is_present(base, 8).unwrap());
    assert!(api::is_present(ptrs[1] as usize + 16, 32).unwrap());
    assert!(!api::is_present(ptrs[1] as usize, 8).unwrap() && !api::is_present(ptrs[0] as usize + 16, 8).unwrap());
    deep(dev, DeepOp::Exit, Clause::Delete, base, &sub, flags::FINALIZE, acc_async_sync, ctx()).unwrap();
    assert!(!api::is_present(base + 8, 24).unwrap() && !api::is_present(ptrs[1] as usize + 16, 32).unwrap());
    drop(rows);
}

#[test]
fn null_rows_and_three_levels() {
    let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dev = device::current_device().unwrap();
    let mut leaf = [vec![1i32; 4], vec![2i32; 4]];
    let mut mid: Vec<*mut i32> = vec![leaf[0].as_mut_ptr(), std::ptr::null_mut(), leaf[1].as_mut_ptr()];
    let top: Vec<*mut *mut i32> = vec![mid.as_mut_ptr(), std::ptr::null_mut()];
    let base = top.as_ptr() as usize;
    let levels = [Level { lower: 0, length: 2, size: 8 }, Level { lower: 0, length: 3, size: 8 }, Level { lower: 0, length: 4, size: 4 }];
    deep(dev, DeepOp::Enter, Clause::Create, base, &levels, flags::STRUCTURED, acc_async_sync, ctx()).unwrap();
    assert!(api::is_present(mid.as_ptr() as usize, 24).unwrap());
    assert!(api::is_present(leaf[1].as_ptr() as usize, 16).unwrap());
    assert_eq!(api::attach_count(mid.as_ptr() as usize + 16).unwrap(), 1);
    assert_eq!(api::attach_count(mid.as_ptr() as usize + 8).unwrap(), 0, "a null pointer is not attached");
    deep(dev, DeepOp::Update(false), Clause::UpdateSelf, base, &levels, 0, acc_async_sync, ctx()).unwrap();
    deep(dev, DeepOp::Exit, Clause::Create, base, &levels, flags::STRUCTURED, acc_async_sync, ctx()).unwrap();
    assert!(!api::is_present(mid.as_ptr() as usize, 24).unwrap());
    assert!(!api::is_present(leaf[0].as_ptr() as usize, 16).unwrap());
    // Not present: an update of the leaves is an error naming the clause.
    let e = deep(dev, DeepOp::Update(true), Clause::UpdateDevice, base, &levels, 0, acc_async_sync, ctx()).unwrap_err();
    assert_eq!(e.code, acc_error_not_present);
    assert_eq!(e.var.as_deref(), Some("a[0:n][0:m]"));
    leaf[0][0] = 0;
}

#[test]
fn member_pointers_count_attachments() {
    let _s = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dev = device::current_device().unwrap();
    #[repr(C)]
    struct S {
        n: i64,
        p: *mut f32,
    }
    let mut data = vec![0f32; 10];
    let mut other = vec![0f32; 10];
    let mut s = S { n: 10, p: data.as_mut_ptr() };
    let sa = &mut s as *mut S as usize;
    let pa = sa + 8;
    let c = ctx();
    // s not present: attaching its member is no action.
    data::attach(dev, pa, flags::STRUCTURED, acc_async_sync, c).unwrap();
    assert_eq!(api::attach_count(pa).unwrap(), 0);
    api::copyin(sa, 16, acc_async_sync).unwrap();
    data::enter(dev, Clause::Copy, data.as_ptr() as usize, 40, flags::STRUCTURED, acc_async_sync, c).unwrap();
    data::attach(dev, pa, flags::STRUCTURED, acc_async_sync, c).unwrap();
    data::attach(dev, pa, flags::STRUCTURED, acc_async_sync, c).unwrap();
    assert_eq!(api::attach_count(pa).unwrap(), 2);
    // Re-pointed while attached: the counter still counts (§2.7.2).
    api::copyin(other.as_ptr() as usize, 40, acc_async_sync).unwrap();
    s.p = other.as_mut_ptr();
    data::attach(dev, pa, 0, acc_async_sync, c).unwrap();
    assert_eq!(api::attach_count(pa).unwrap(), 3);
    data::detach(dev, pa, 0, acc_async_sync, c).unwrap();
    data::detach(dev, pa, flags::STRUCTURED, acc_async_sync, c).unwrap();
    assert_eq!(api::attach_count(pa).unwrap(), 1);
    data::detach(dev, pa, flags::FINALIZE, acc_async_sync, c).unwrap();
    assert_eq!(api::attach_count(pa).unwrap(), 0, "finalize detaches at once");
    data::exit(dev, Clause::Copy, data.as_ptr() as usize, 40, flags::STRUCTURED, acc_async_sync, c).unwrap();
    api::delete(other.as_ptr() as usize, 40, false, acc_async_sync).unwrap();
    api::delete(sa, 16, false, acc_async_sync).unwrap();
    assert!(!api::is_present(sa, 16).unwrap());
    assert_eq!(s.n, 10);
    other[0] = 1.0;
}
