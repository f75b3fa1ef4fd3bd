//! Deep copies of pointer-to-pointer sections (`copyin(a[0:n][0:m])` on a
//! `T **`, `a[0:n][0:m][0:k]` on a `T ***`, `p[0:N][0:m]` on a `T *p[N]`):
//! the data action of a clause applied level by level, with every pointer of
//! a level attached to the device copy of the block it points to (spec
//! §2.6.4 "data structures with pointers", §2.7.2 attach/detach).
//!
//! A section is described by its level-0 base (the address of element 0 of
//! the first level), and per level `lower`, `length` and the element size
//! (a pointer's size on every level but the last). Level 0 is one block:
//! `base + lower0*size0`, `length0*size0` bytes. Each pointer `p` of a
//! non-last level points to the next level's block `p + lower*size`.
//!
//! - Enter: a block enters, then for each of its pointers (in order) the
//!   subtree below it enters and the pointer is attached.
//! - Exit: the reverse: for each pointer (last first) it is detached and its
//!   subtree exits; then the block exits. Detaching first restores host
//!   pointers in the device copy before a copyout of the block.
//! - Update: the blocks of the last level are updated; blocks of pointers
//!   are not (their device copies hold device addresses).
//!
//! Null pointers in a level have no subtree. Pointers are read from host
//! memory at the time of the action.

use crate::data::{self, flags, Clause, Ctx};
use crate::device::Device;
use crate::error::{AccError, AccResult};

/// What to do with a deep section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeepOp {
    Enter,
    Exit,
    /// `update device` (true) or `update self` (false).
    Update(bool),
}

/// One level of a deep section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub lower: i64,
    pub length: i64,
    /// Element size in bytes (8 for a pointer level).
    pub size: i64,
}

const PTR: usize = std::mem::size_of::<usize>();

fn block(base: usize, l: &Level) -> AccResult<(usize, usize)> {
    if l.length < 0 || l.size <= 0 {
        return Err(AccError::new(
            crate::consts::acc_error_invalid_data_section,
            format!("invalid level of a deep section (lower {}, length {}, element size {})", l.lower, l.length, l.size),
        ));
    }
    let off = l.lower.wrapping_mul(l.size) as isize;
    Ok(((base as isize).wrapping_add(off) as usize, (l.length * l.size) as usize))
}

/// Applies `op` with clause `clause` to the deep section at `base`.
#[allow(clippy::too_many_arguments)]
pub fn deep(dev: &'static Device, op: DeepOp, clause: Clause, base: usize, levels: &[Level], fl: i64, async_: i64, ctx: Ctx) -> AccResult<()> {
    if levels.is_empty() || base == 0 {
        return Ok(());
    }
    let (addr, bytes) = block(base, &levels[0])?;
    let last = levels.len() == 1;
    let pointers = |addr: usize| (0..if last { 0 } else { bytes / PTR }).map(move |i| addr + i * PTR);
    match op {
        DeepOp::Enter => {
            data::enter(dev, clause, addr, bytes, fl, async_, ctx)?;
            for pa in pointers(addr) {
                let p = unsafe { std::ptr::read_unaligned(pa as *const usize) };
                if p == 0 {
                    continue;
                }
                deep(dev, op, clause, p, &levels[1..], fl, async_, ctx.inner())?;
                // The row is present from its section's first element on.
                let (section, _) = block(p, &levels[1])?;
                data::attach_section(dev, pa, Some(section), fl & flags::STRUCTURED, async_, ctx)?;
            }
        }
        DeepOp::Exit => {
            let ps: Vec<usize> = pointers(addr).collect();
            for pa in ps.into_iter().rev() {
                let p = unsafe { std::ptr::read_unaligned(pa as *const usize) };
                if p == 0 {
                    continue;
                }
                data::detach(dev, pa, fl & (flags::STRUCTURED | flags::FINALIZE), async_, ctx)?;
                deep(dev, op, clause, p, &levels[1..], fl, async_, ctx.inner())?;
            }
            data::exit(dev, clause, addr, bytes, fl, async_, ctx)?;
        }
        DeepOp::Update(to_device) => {
            // Blocks of pointers are not copied: their device copies hold device addresses.
            if last {
                data::update(dev, to_device, addr, bytes, fl, async_, ctx)?;
            }
            for pa in pointers(addr) {
                let p = unsafe { std::ptr::read_unaligned(pa as *const usize) };
                if p != 0 {
                    deep(dev, op, clause, p, &levels[1..], fl, async_, ctx)?;
                }
            }
        }
    }
    Ok(())
}
