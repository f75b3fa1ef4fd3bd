//! `print`, `write` and `read` through the Fortran runtime (ABI table
//! `FORTRAN_ENTRY_POINTS`): one `*_begin` with the unit and the format
//! text (null for list-directed), one call per item in order (arrays
//! element by element in column-major order, implied dos as loops), then
//! `*_end`, whose result is the statement's `iostat`.
//!
//! In device code (a compute construct or an `acc routine`) `print` and
//! `write` to a unit are accepted: the same calls run on the executing
//! thread (host, multicore), or the nvidia back end logs them for the
//! runtime to replay after the launch. What has no meaning there (`read`,
//! `open`, `close`, `rewind`, `backspace`, `endfile`, `flush`, internal
//! writes into a character variable) is refused at the statement.

use super::cx::{Cx, Loc, Sym, R};
use super::types::FType;
use crate::ast::{self, FormatSpec, IoItem, IoUnit};
use accjit_ir::{build, ExprId, ExprKind, Span, StmtKind, Type};

/// The `iostat=`, `err=` and `end=` of an I/O statement.
#[derive(Default)]
struct IoSpecs {
    iostat: Option<(ExprId, FType)>,
    err: Option<accjit_ir::LabelId>,
    end: Option<accjit_ir::LabelId>,
}

impl Cx<'_> {
    /// `"file:line"` of a span, as a C string.
    pub fn loc_str(&mut self, sp: Span) -> ExprId {
        let s = match self.sh.sm.file_line(sp) {
            Some((f, l)) => format!("{f}:{l}"),
            None => "<unknown>".into(),
        };
        self.c_string(s.as_bytes(), sp)
    }

    /// The format of an I/O statement: (pointer, length); null for `*`.
    fn format_arg(&mut self, f: Option<&FormatSpec>, sp: Span) -> R<(ExprId, ExprId)> {
        match f {
            None | Some(FormatSpec::Star) => Ok((self.int(0, Type::ptr(Type::Void), sp), self.i64c(0, sp))),
            Some(FormatSpec::Label(l, lsp)) => {
                let Some(text) = self.formats.get(l).cloned() else {
                    return Err(self.err(*lsp, format!("no format statement with label {l}")));
                };
                let t = format!("({text})");
                let p = self.byte_string(t.as_bytes(), sp);
                Ok((p, self.i64c(t.len() as i64, sp)))
            }
            Some(FormatSpec::Expr(e)) => {
                if let ast::ExprKind::Int { value, .. } = &e.kind {
                    return self.format_arg(Some(&FormatSpec::Label(*value as u64, e.span)), sp);
                }
                if !self.is_char_expr(e) {
                    return Err(self.err(e.span, "a format is a character expression or a format label"));
                }
                self.char_val(e)
            }
        }
    }

    /// Code that may run on an accelerator: a compute construct or an `acc routine`.
    fn in_device_code(&self) -> bool {
        self.region.is_some() || self.routine.is_some()
    }

    fn unit_begin(&mut self, write: bool, unit: Option<&IoUnit>, fmt: Option<&FormatSpec>, sp: Span) -> R<()> {
        let (fp, fl) = self.format_arg(fmt, sp)?;
        let loc = self.loc_str(sp);
        match unit {
            Some(IoUnit::Expr(u)) if self.is_char_expr(u) => {
                if self.in_device_code() {
                    return Err(self.err(u.span, "an internal write (into a character variable) is not supported in device code"));
                }
                let (bp, bl) = self.char_val(u)?;
                let name = if write { accjit_abi::F_WRITE_BEGIN_INTERNAL } else { accjit_abi::F_READ_BEGIN_INTERNAL };
                let c = self.rt_call(name, vec![bp, bl, fp, fl, loc], sp);
                self.emit_expr(c, sp);
            }
            _ => {
                let u = match unit {
                    None | Some(IoUnit::Star) => self.i64c(-1, sp),
                    Some(IoUnit::Expr(u)) => self.int_i64(u)?,
                };
                let name = if write { accjit_abi::F_WRITE_BEGIN } else { accjit_abi::F_READ_BEGIN };
                let c = self.rt_call(name, vec![u, fp, fl, loc], sp);
                self.emit_expr(c, sp);
            }
        }
        Ok(())
    }

    /// `print`/`write`. (In device code the runtime calls run on the
    /// executing thread, whose statement state is its own: host and
    /// multicore; the nvidia back end logs them, `accjit_abi::device_io_log`.)
    pub fn write_stmt(&mut self, unit: Option<&IoUnit>, fmt: Option<&FormatSpec>, items: &[IoItem], specs: &[(ast::Name, ast::Expr)], sp: Span) -> R<()> {
        self.unit_begin(true, unit, fmt, sp)?;
        let specs = self.io_specs(specs, sp)?;
        for it in items {
            self.write_item(it)?;
        }
        let end = self.rt_call(accjit_abi::F_WRITE_END, vec![], sp);
        self.finish_io(end, specs, sp)
    }

    fn io_specs(&mut self, specs: &[(ast::Name, ast::Expr)], sp: Span) -> R<IoSpecs> {
        let mut out = IoSpecs::default();
        for (k, v) in specs {
            match k.text.as_str() {
                "iostat" => out.iostat = Some(self.place_of(v)?),
                "err" | "end" => {
                    let ast::ExprKind::Int { value, .. } = &v.kind else {
                        return Err(self.err(v.span, format!("`{}=` takes a statement label", k.text)));
                    };
                    let l = self.label(*value as u64);
                    if k.text == "err" {
                        out.err = Some(l);
                    } else {
                        out.end = Some(l);
                    }
                }
                "advance" => {
                    let no = match self.fold(v) {
                        Some((super::consts::ConstVal::Str(s), _)) => s.eq_ignore_ascii_case(b"no"),
                        _ => return Err(self.err(v.span, "advance= must be a constant 'yes' or 'no'")),
                    };
                    if no {
                        let c = self.rt_call(accjit_abi::F_IO_NONADVANCING, vec![], sp);
                        self.emit_expr(c, sp);
                    }
                }
                "unit" | "fmt" | "iomsg" => {}
                other => return Err(self.err(k.span, format!("`{other}=` is not supported"))),
            }
        }
        if out.iostat.is_some() || out.err.is_some() || out.end.is_some() {
            let c = self.rt_call(accjit_abi::F_IO_IOSTAT, vec![], sp);
            self.emit_expr(c, sp);
        }
        Ok(out)
    }

    /// Stores a statement's iostat (`code`) and branches to `err=`/`end=`.
    fn finish_io(&mut self, code: ExprId, specs: IoSpecs, sp: Span) -> R<()> {
        if specs.iostat.is_none() && specs.err.is_none() && specs.end.is_none() {
            self.emit_expr(code, sp);
            return Ok(());
        }
        let c = self.temp("iostat", code, sp);
        if let Some((p, t)) = specs.iostat {
            let v = build::load_local(&mut self.f, c, sp);
            let v = self.cast(v, t.ir(), sp);
            let a = build::assign(&mut self.f, p, v, sp);
            self.emit_expr(a, sp);
        }
        // end= on end of file (< 0; without it, err= takes that too), err= on an error (> 0)
        for (label, op) in [(specs.end, accjit_ir::BinOp::Lt), (specs.err, if specs.end.is_some() { accjit_ir::BinOp::Gt } else { accjit_ir::BinOp::Ne })] {
            let Some(l) = label else { continue };
            let v = build::load_local(&mut self.f, c, sp);
            let z = self.i64c(0, sp);
            let cond = self.bin(op, v, z, Type::I32, sp);
            let then = accjit_ir::Block::new(vec![accjit_ir::Stmt { kind: StmtKind::Goto(l), span: sp }]);
            self.emit(StmtKind::If(cond, then, accjit_ir::Block::default()), sp);
        }
        Ok(())
    }

    /// `open`, `close`, `rewind`, `backspace`, `endfile`, `flush` (runtime units.rs).
    pub fn file_op(&mut self, op: &str, control: &ast::IoControl, sp: Span) -> R<()> {
        if self.in_device_code() {
            return Err(self.err(sp, format!("`{op}` is not supported in device code (a compute construct or an acc routine)")));
        }
        let unit = match &control.unit {
            Some(IoUnit::Expr(u)) => self.int_i64(u)?,
            _ => self.i64c(if op == "flush" { -1 } else { 0 }, sp),
        };
        let name = self.c_string(op.as_bytes(), sp);
        let loc = self.loc_str(sp);
        let c = self.rt_call(accjit_abi::F_FILEOP_BEGIN, vec![name, unit, loc], sp);
        self.emit_expr(c, sp);
        let mut specs = IoSpecs::default();
        let mut newunit = None;
        for (k, v) in &control.specs {
            match k.text.as_str() {
                "iostat" => specs.iostat = Some(self.place_of(v)?),
                "err" => {
                    let ast::ExprKind::Int { value, .. } = &v.kind else { return Err(self.err(v.span, "`err=` takes a statement label")) };
                    specs.err = Some(self.label(*value as u64));
                }
                "newunit" => {
                    newunit = Some(self.place_of(v)?);
                    let key = self.c_string(b"newunit", sp);
                    let z = self.int(0, Type::ptr(Type::Void), sp);
                    let n = self.i64c(0, sp);
                    let c = self.rt_call(accjit_abi::F_FILEOP_SPEC, vec![key, z, n], sp);
                    self.emit_expr(c, sp);
                }
                "iomsg" | "recl" => {}
                key => {
                    if !self.is_char_expr(v) {
                        return Err(self.err(v.span, format!("`{key}=` takes a character value")));
                    }
                    let (p, n) = self.char_val(v)?;
                    let kp = self.c_string(key.as_bytes(), sp);
                    let c = self.rt_call(accjit_abi::F_FILEOP_SPEC, vec![kp, p, n], sp);
                    self.emit_expr(c, sp);
                }
            }
        }
        let wants = self.i64c((specs.iostat.is_some() || specs.err.is_some()) as i64, sp);
        let end = self.rt_call(accjit_abi::F_FILEOP_END, vec![wants], sp);
        let code = self.temp("iostat", end, sp);
        if let Some((p, t)) = newunit {
            // newunit= is defined only when the open succeeds
            let u = self.rt_call(accjit_abi::F_FILEOP_UNIT, vec![], sp);
            let u = self.cast(u, t.ir(), sp);
            let a = build::assign(&mut self.f, p, u, sp);
            let v = build::load_local(&mut self.f, code, sp);
            let z = self.i64c(0, sp);
            let ok = self.bin(accjit_ir::BinOp::Eq, v, z, Type::I32, sp);
            let then = accjit_ir::Block::new(vec![build::expr_stmt(a, sp)]);
            self.emit(StmtKind::If(ok, then, accjit_ir::Block::default()), sp);
        }
        let v = build::load_local(&mut self.f, code, sp);
        self.finish_io(v, specs, sp)
    }

    fn write_item(&mut self, it: &IoItem) -> R<()> {
        match it {
            IoItem::Expr(e) => {
                let sp = e.span;
                if self.is_char_expr(e) {
                    let (p, n) = self.char_val(e)?;
                    let c = self.rt_call(accjit_abi::F_WRITE_STR, vec![p, n], sp);
                    self.emit_expr(c, sp);
                    return Ok(());
                }
                if self.rank_of(e) > 0 {
                    self.materialise(e)?;
                    let shape = self.shape_of(e)?;
                    return self.nest(&shape, sp, &mut |cx, idx| {
                        cx.elem = Some(idx.to_vec());
                        let r = cx.value(e);
                        cx.elem = None;
                        let v = r?;
                        cx.write_value(v, sp)
                    });
                }
                let v = self.value(e)?;
                self.write_value(v, sp)
            }
            IoItem::ImpliedDo(d) => {
                let items = d.items.clone();
                self.io_implied_do(&d.control, d.span, &mut |cx| {
                    for x in &items {
                        cx.write_item(x)?;
                    }
                    Ok(())
                })
            }
        }
    }

    fn write_value(&mut self, v: super::expr::Val, sp: Span) -> R<()> {
        let k = self.i64c(v.ty.kind() as i64, sp);
        let c = match &v.ty {
            FType::Int(_) => {
                let x = self.cast(v.e, Type::I64, sp);
                self.rt_call(accjit_abi::F_WRITE_I64, vec![x, k], sp)
            }
            FType::Real(_) => {
                let x = self.cast(v.e, Type::F64, sp);
                self.rt_call(accjit_abi::F_WRITE_F64, vec![x, k], sp)
            }
            FType::Complex(kk) => {
                let x = self.settle(v.e, sp);
                let rt = FType::Real(*kk).ir();
                let re = self.mk(ExprKind::ComplexPart(x, false), rt.clone(), sp);
                let x2 = self.clone_expr(x);
                let im = self.mk(ExprKind::ComplexPart(x2, true), rt, sp);
                let re = self.cast(re, Type::F64, sp);
                let im = self.cast(im, Type::F64, sp);
                self.rt_call(accjit_abi::F_WRITE_C64, vec![re, im, k], sp)
            }
            FType::Logical(_) => {
                let x = self.cast(v.e, Type::I64, sp);
                self.rt_call(accjit_abi::F_WRITE_LOGICAL, vec![x, k], sp)
            }
            t => return Err(self.err(sp, format!("cannot write {}", t.name()))),
        };
        self.emit_expr(c, sp);
        Ok(())
    }

    /// An implied do of an I/O list: `(items, i = a, b [, s])`.
    fn io_implied_do(&mut self, c: &ast::LoopControl, sp: Span, body: &mut dyn FnMut(&mut Self) -> R<()>) -> R<()> {
        let v = match self.lookup_or_implicit(&c.var.text, c.var.span)? {
            Sym::Scalar(v) if v.ty.is_int() => v,
            _ => return Err(self.err(c.var.span, "an implied-do variable must be an integer variable")),
        };
        let lo = self.int_i64(&c.start)?;
        let lo = self.settle(lo, sp);
        let hi = self.int_i64(&c.end)?;
        let st = match &c.step {
            Some(s) => self.int_i64(s)?,
            None => self.i64c(1, sp),
        };
        let st = self.settle(st, sp);
        let trip = self.trip_count(lo, hi, st, sp);
        let trip = self.temp("trip", trip, sp);
        let loc = v.loc;
        let n = build::load_local(&mut self.f, trip, sp);
        self.counted_loop(n, sp, |cx, k| {
            let kv = build::load_local(&mut cx.f, k, sp);
            let s = cx.clone_expr(st);
            let m = cx.bin(accjit_ir::BinOp::Mul, kv, s, Type::I64, sp);
            let l = cx.clone_expr(lo);
            let val = cx.bin(accjit_ir::BinOp::Add, l, m, Type::I64, sp);
            cx.set(loc, val, sp);
            body(cx)
        })?;
        // The variable ends as a do loop's does (gfortran: lo + trip*step).
        let n = build::load_local(&mut self.f, trip, sp);
        let s = self.clone_expr(st);
        let m = self.bin(accjit_ir::BinOp::Mul, n, s, Type::I64, sp);
        let l = self.clone_expr(lo);
        let val = self.bin(accjit_ir::BinOp::Add, l, m, Type::I64, sp);
        self.set(loc, val, sp);
        Ok(())
    }

    /// `read`.
    pub fn read_stmt(&mut self, control: &ast::IoControl, items: &[IoItem], sp: Span) -> R<()> {
        if self.in_device_code() {
            return Err(self.err(sp, "`read` is not supported in device code (a compute construct or an acc routine)"));
        }
        self.unit_begin(false, control.unit.as_ref(), control.format.as_ref(), sp)?;
        let specs = self.io_specs(&control.specs, sp)?;
        for it in items {
            self.read_item(it)?;
        }
        let end = self.rt_call(accjit_abi::F_READ_END, vec![], sp);
        self.finish_io(end, specs, sp)
    }

    fn read_item(&mut self, it: &IoItem) -> R<()> {
        match it {
            IoItem::Expr(e) => {
                let sp = e.span;
                if self.is_char_expr(e) {
                    let (p, n) = self.char_val(e)?;
                    let c = self.rt_call(accjit_abi::F_READ_STR, vec![p, n], sp);
                    self.emit_expr(c, sp);
                    return Ok(());
                }
                if self.rank_of(e) > 0 {
                    let shape = self.shape_of(e)?;
                    return self.nest(&shape, sp, &mut |cx, idx| {
                        cx.elem = Some(idx.to_vec());
                        let r = cx.place_of(e);
                        cx.elem = None;
                        let (p, t) = r?;
                        cx.read_into(p, &t, sp)
                    });
                }
                let (p, t) = self.place_of(e)?;
                self.read_into(p, &t, sp)
            }
            IoItem::ImpliedDo(d) => {
                let items = d.items.clone();
                self.io_implied_do(&d.control, d.span, &mut |cx| {
                    for x in &items {
                        cx.read_item(x)?;
                    }
                    Ok(())
                })
            }
        }
    }

    fn read_into(&mut self, place: ExprId, t: &FType, sp: Span) -> R<()> {
        let a = build::addr_of(&mut self.f, place, sp);
        let k = self.i64c(t.kind() as i64, sp);
        let name = match t {
            FType::Int(_) => accjit_abi::F_READ_I64,
            FType::Real(_) => accjit_abi::F_READ_F64,
            FType::Complex(_) => accjit_abi::F_READ_C64,
            FType::Logical(_) => accjit_abi::F_READ_LOGICAL,
            t => return Err(self.err(sp, format!("cannot read {}", t.name()))),
        };
        let c = self.rt_call(name, vec![a, k], sp);
        self.emit_expr(c, sp);
        let _ = (Loc::Const(0), StmtKind::Break);
        Ok(())
    }
}
