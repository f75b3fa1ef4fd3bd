//! Bit-fields, lowered in the front end (the IR has none): a bit-field is
//! an IR field of its declared type at the offset of its storage unit; a
//! read loads the unit and extracts the bits (sign-extending signed fields),
//! a write is a read-modify-write of the unit. Layout follows the x86-64
//! SysV rules (a field never straddles a unit of its type's size).

use super::ctype::CType;
use super::expr::{CExpr, Cat};
use super::{PResult, Parser};
use accjit_ir::{BinOp, ExprKind, Span, StructId};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BitInfo {
    pub bit: u32,
    pub width: u32,
}

impl<'a> Parser<'a> {
    pub fn bitfield(&self, sid: StructId, field: u32) -> Option<BitInfo> {
        self.bitfields.get(&(sid.0, field)).copied()
    }

    fn unit_bits(t: &CType) -> u32 {
        t.scalar().map(|s| s.size() as u32 * 8).unwrap_or(32)
    }

    /// Read a bit-field: `(unit >> bit) & mask`, or the sign-extending shifts.
    pub fn bitfield_read(&mut self, e: CExpr, bi: BitInfo) -> CExpr {
        let sp = e.span;
        let t = e.ty.clone();
        let ir = t.ir();
        let w = Self::unit_bits(&t);
        let unit = self.mk(ExprKind::Load(e.id), ir.clone(), sp);
        let signed = t.scalar().map(|s| s.is_signed()).unwrap_or(false);
        let v = if signed {
            let l = self.mk(ExprKind::Int((w - bi.bit - bi.width) as i64), ir.clone(), sp);
            let up = self.mk(ExprKind::Binary(BinOp::Shl, unit, l), ir.clone(), sp);
            let r = self.mk(ExprKind::Int((w - bi.width) as i64), ir.clone(), sp);
            self.mk(ExprKind::Binary(BinOp::Shr, up, r), ir.clone(), sp)
        } else {
            let b = self.mk(ExprKind::Int(bi.bit as i64), ir.clone(), sp);
            let down = self.mk(ExprKind::Binary(BinOp::Shr, unit, b), ir.clone(), sp);
            let mask = self.mk(ExprKind::Int(mask(bi.width) as i64), ir.clone(), sp);
            self.mk(ExprKind::Binary(BinOp::BitAnd, down, mask), ir.clone(), sp)
        };
        let r = CExpr { id: v, ty: t.clone(), cat: Cat::Value, span: sp };
        // An unsigned field narrower than int promotes to int.
        if !signed && bi.width < 32 && matches!(t, CType::Scalar(s) if s.size() <= 4) {
            return self.conv(r, &CType::INT);
        }
        r
    }

    /// `place = value` for a bit-field place (value already converted to its type).
    pub fn bitfield_write(&mut self, place: &CExpr, value: CExpr, bi: BitInfo, sp: Span) -> CExpr {
        let t = place.ty.clone();
        let ir = t.ir();
        let m = mask(bi.width);
        let p2 = self.clone_expr(place.id);
        let unit = self.mk(ExprKind::Load(p2), ir.clone(), sp);
        let keep = self.mk(ExprKind::Int(!(m << bi.bit) as i64), ir.clone(), sp);
        let kept = self.mk(ExprKind::Binary(BinOp::BitAnd, unit, keep), ir.clone(), sp);
        let mk = self.mk(ExprKind::Int(m as i64), ir.clone(), sp);
        let v = self.mk(ExprKind::Binary(BinOp::BitAnd, value.id, mk), ir.clone(), sp);
        let b = self.mk(ExprKind::Int(bi.bit as i64), ir.clone(), sp);
        let shifted = self.mk(ExprKind::Binary(BinOp::Shl, v, b), ir.clone(), sp);
        let new = self.mk(ExprKind::Binary(BinOp::BitOr, kept, shifted), ir.clone(), sp);
        let id = self.mk(ExprKind::Assign(place.id, new), ir, sp);
        CExpr { id, ty: t, cat: Cat::Value, span: sp }
    }

    /// `x op= v`, `x++`… on a bit-field: read, operate, write back.
    pub fn bitfield_update(&mut self, place: CExpr, op: BinOp, rhs: CExpr, bi: BitInfo, sp: Span) -> PResult<CExpr> {
        let copy = CExpr { id: self.clone_expr(place.id), ..place.clone() };
        let cur = self.bitfield_read(copy, bi);
        let v = self.build_binary(op, cur, rhs, sp)?;
        let t = place.ty.clone();
        let v = self.conv(v, &t);
        Ok(self.bitfield_write(&place, v, bi, sp))
    }
}

pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}
