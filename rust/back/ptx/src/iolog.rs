//! Fortran `print`/`write` in device code (`accjit_abi::device_io_log`):
//! a call of a logged `__accjit_f_*` entry point appends one record of its
//! arguments to the module's log (`.global`s the runtime reads after the
//! launch and replays through the same entry points on the host). The
//! records go into a region of the log the thread claims with one atomic
//! add on the header's byte count: a new one at each statement's
//! `*_begin`, another when a record does not fit in the rest (whose
//! unused bytes are a pad record), so that the statements that fit come
//! out whole when the log runs full (the others are dropped, counted).
//! Texts (a format, an item, the statement's `file:line`) are copied into
//! the record, wherever they live (module constants, the thread's frame,
//! device arrays). `*_end` gives 0: an I/O error is known only at the
//! replay.

use accjit_abi::device_io_log as log;
use accjit_abi::AbiType;
use accjit_ir::{Diagnostic, ExprId, Scalar, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::Val;

/// The `.global`s of the log (declared once per module that logs).
pub fn declarations() -> String {
    format!(".visible .global .align 8 .b8 {}[{}];\n.visible .global .align 8 .b8 {}[{}];\n", log::HEADER, log::HEADER_BYTES, log::SYMBOL, log::CAPACITY)
}

/// The record id of a logged entry point.
pub fn logged_id(name: &str) -> Option<u32> {
    log::LOGGED.iter().position(|&n| n == name).map(|i| i as u32)
}

/// One argument as the record carries it.
enum Field {
    /// 8 bytes of value bits (a `.b64` register).
    Bits(String),
    /// A text: its generic address and byte count (`.b64` registers).
    Text(String, String),
}

impl FnCx<'_> {
    /// The call `name(args)` of the logged entry point `id`.
    pub fn lower_io_log(&mut self, id: u32, name: &str, args: &[ExprId], ret: &Type, span: Span) -> Result<Val, Diagnostic> {
        let params = accjit_abi::fortran_entry_point(name).map(|e| e.params).unwrap_or(&[]);
        if params.len() != args.len() {
            return Err(Diagnostic::error(span, format!("internal error: '{name}' takes {} arguments, not {}", params.len(), args.len())));
        }
        // Every argument first (an item may itself compute), then the record.
        let mut regs = vec![];
        for (&a, &p) in args.iter().zip(params) {
            let v = self.lower_expr(a)?;
            let aty = self.ety(a);
            let r = match p {
                AbiType::F64 => {
                    let f = self.cast(v, &aty, &Type::F64, span)?.s(span)?;
                    let b = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("mov.b64 {b}, {f};"));
                    b
                }
                _ => self.as_i64(v, &aty, span)?,
            };
            regs.push(r);
        }
        let skip = self.e.label();
        if let Some(p) = self.store_pred.clone() {
            // every executor evaluates the statement; only the single one writes
            self.e.line(&format!("@!{p} bra {skip};"));
        }
        let mut fields = vec![];
        for (k, &p) in params.iter().enumerate() {
            match p {
                AbiType::Ptr => {
                    // the bytes of the length after it, clamped to 0..=MAX_TEXT
                    let len = regs.get(k + 1).cloned().unwrap_or_else(|| "0".into());
                    let n = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("max.s64 {n}, {len}, 0;"));
                    self.e.line(&format!("min.s64 {n}, {n}, {};", log::MAX_TEXT));
                    fields.push(Field::Text(regs[k].clone(), n));
                }
                AbiType::CStr => {
                    let n = self.text_length(&regs[k]);
                    fields.push(Field::Text(regs[k].clone(), n));
                }
                _ => fields.push(Field::Bits(regs[k].clone())),
            }
        }
        // The record's size.
        let fixed = log::RECORD_HEAD + 8 * fields.len();
        let size = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {size}, {fixed};"));
        for f in &fields {
            if let Field::Text(_, n) = f {
                let padded = self.e.reg(PtxTy::B64);
                self.e.line(&format!("add.s64 {padded}, {n}, 7;"));
                self.e.line(&format!("and.b64 {padded}, {padded}, -8;"));
                self.e.line(&format!("add.s64 {size}, {size}, {padded};"));
            }
        }
        // Its place: the rest of the thread's region, or a new region.
        let (cur, lim) = self.io_region();
        let claimed = self.e.label();
        if name != accjit_abi::F_WRITE_BEGIN {
            let need = self.e.reg(PtxTy::B64);
            self.e.line(&format!("add.s64 {need}, {cur}, {size};"));
            let fits = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.le.u64 {fits}, {need}, {lim};"));
            self.e.line(&format!("@{fits} bra {claimed};"));
        }
        self.claim_region(&size, name == accjit_abi::F_WRITE_BEGIN, &skip);
        self.e.place(&claimed);
        let base = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {base}, {cur};"));
        self.e.line(&format!("add.s64 {cur}, {cur}, {size};"));
        // The head: entry, size, thread.
        let size32 = self.e.reg(PtxTy::B32);
        self.e.line(&format!("cvt.u32.u64 {size32}, {size};"));
        self.e.line(&format!("st.global.u32 [{base}], {id};"));
        self.e.line(&format!("st.global.u32 [{base}+4], {size32};"));
        let thread = self.thread_key();
        self.e.line(&format!("st.global.u64 [{base}+8], {thread};"));
        // The arguments.
        let at = self.e.reg(PtxTy::B64);
        self.e.line(&format!("add.s64 {at}, {base}, {};", log::RECORD_HEAD));
        for f in &fields {
            match f {
                Field::Bits(r) => {
                    self.e.line(&format!("st.global.u64 [{at}], {r};"));
                    self.e.line(&format!("add.s64 {at}, {at}, 8;"));
                }
                Field::Text(p, n) => {
                    self.e.line(&format!("st.global.u64 [{at}], {n};"));
                    self.e.line(&format!("add.s64 {at}, {at}, 8;"));
                    let dst = at.clone();
                    let src = p.clone();
                    self.each_index_reg(n, |fx, i| {
                        let s = fx.e.reg(PtxTy::B64);
                        fx.e.line(&format!("add.s64 {s}, {src}, {i};"));
                        let d = fx.e.reg(PtxTy::B64);
                        fx.e.line(&format!("add.s64 {d}, {dst}, {i};"));
                        let b = fx.e.reg(PtxTy::B16);
                        fx.e.line(&format!("ld.u8 {b}, [{s}];"));
                        fx.e.line(&format!("st.global.u8 [{d}], {b};"));
                        Ok(())
                    })?;
                    let padded = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("add.s64 {padded}, {n}, 7;"));
                    self.e.line(&format!("and.b64 {padded}, {padded}, -8;"));
                    self.e.line(&format!("add.s64 {at}, {at}, {padded};"));
                }
            }
        }
        // The rest of the region: a pad record.
        let rest = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.lt.u64 {rest}, {cur}, {lim};"));
        let padded = self.e.label();
        self.e.line(&format!("@!{rest} bra {padded};"));
        let gap = self.e.reg(PtxTy::B64);
        self.e.line(&format!("sub.s64 {gap}, {lim}, {cur};"));
        let gap32 = self.e.reg(PtxTy::B32);
        self.e.line(&format!("cvt.u32.u64 {gap32}, {gap};"));
        self.e.line(&format!("st.global.u32 [{cur}], {};", log::PAD));
        self.e.line(&format!("st.global.u32 [{cur}+4], {gap32};"));
        self.e.place(&padded);
        self.e.place(&skip);
        Ok(match ret {
            Type::Void => Val::Void,
            _ => Val::S(self.iconst(crate::value::scalar_of(ret).unwrap_or(Scalar::I64), 0)),
        })
    }

    /// The registers holding this function's region of the log: the next
    /// record's address and the region's end (set by each statement's
    /// `*_begin`, which claims a region; a function's statements follow
    /// one another, and a statement begun in a called function has that
    /// function's registers).
    fn io_region(&mut self) -> (String, String) {
        if let Some(r) = &self.io_region {
            return r.clone();
        }
        let r = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.io_region = Some(r.clone());
        r
    }

    /// Claims a region of `max(size, REGION)` bytes for the next record
    /// (`size` bytes) into the registers of [`io_region`]; where there is
    /// no room, the statement is dropped (counted when `first`, its
    /// `*_begin`: the later records of a statement that lost one find no
    /// room either, as the claimed bytes only grow), the region left empty
    /// and the call skipped (to `skip`). A claim starting inside the log
    /// leaves a zero record size there: the end of the records.
    fn claim_region(&mut self, size: &str, first: bool, skip: &str) {
        let (cur, lim) = self.io_region();
        let bytes = self.e.reg(PtxTy::B64);
        self.e.line(&format!("max.u64 {bytes}, {size}, {};", log::REGION));
        let head = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {head}, {};", log::HEADER));
        let off = self.e.reg(PtxTy::B64);
        self.e.line(&format!("atom.global.add.u64 {off}, [{head}+{}], {bytes};", log::USED));
        let end = self.e.reg(PtxTy::B64);
        self.e.line(&format!("add.s64 {end}, {off}, {bytes};"));
        self.e.line(&format!("mov.u64 {cur}, {};", log::SYMBOL));
        self.e.line(&format!("add.s64 {cur}, {cur}, {off};"));
        let fits = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.le.u64 {fits}, {end}, {};", log::CAPACITY));
        let ok = self.e.label();
        self.e.line(&format!("@{fits} bra {ok};"));
        if first {
            let dropped = self.e.reg(PtxTy::B64);
            self.e.line(&format!("atom.global.add.u64 {dropped}, [{head}+{}], 1;", log::DROPPED));
        }
        let inside = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.le.u64 {inside}, {off}, {};", log::CAPACITY - 8));
        self.e.line(&format!("@{inside} st.global.u64 [{cur}], 0;"));
        self.e.line(&format!("mov.u64 {cur}, 0;"));
        self.e.line(&format!("mov.u64 {lim}, 0;"));
        self.e.line(&format!("bra {skip};"));
        self.e.place(&ok);
        self.e.line(&format!("add.s64 {lim}, {cur}, {bytes};"));
    }

    /// The length of the NUL-terminated text at `p` (0 for null), at most `MAX_TEXT`.
    fn text_length(&mut self, p: &str) -> String {
        let n = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {n}, 0;"));
        let (head, done) = (self.e.label(), self.e.label());
        let null = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.eq.u64 {null}, {p}, 0;"));
        self.e.line(&format!("@{null} bra {done};"));
        self.e.place(&head);
        let full = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.u64 {full}, {n}, {};", log::MAX_TEXT));
        self.e.line(&format!("@{full} bra {done};"));
        let a = self.e.reg(PtxTy::B64);
        self.e.line(&format!("add.s64 {a}, {p}, {n};"));
        let b = self.e.reg(PtxTy::B16);
        self.e.line(&format!("ld.u8 {b}, [{a}];"));
        let nul = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.eq.u16 {nul}, {b}, 0;"));
        self.e.line(&format!("@{nul} bra {done};"));
        self.e.line(&format!("add.s64 {n}, {n}, 1;"));
        self.e.line(&format!("bra {head};"));
        self.e.place(&done);
        n
    }

    /// The calling thread's key: linear block index << 32 | linear thread index in the block.
    fn thread_key(&mut self) -> String {
        let r = |fx: &mut Self, sp: &str| {
            let x = fx.e.reg(PtxTy::B32);
            fx.e.line(&format!("mov.u32 {x}, {sp};"));
            x
        };
        let (bx, by, bz, nbx, nby) = (r(self, "%ctaid.x"), r(self, "%ctaid.y"), r(self, "%ctaid.z"), r(self, "%nctaid.x"), r(self, "%nctaid.y"));
        let (tx, ty, tz, ntx, nty) = (r(self, "%tid.x"), r(self, "%tid.y"), r(self, "%tid.z"), r(self, "%ntid.x"), r(self, "%ntid.y"));
        let block = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mad.lo.u32 {block}, {nby}, {bz}, {by};"));
        self.e.line(&format!("mad.lo.u32 {block}, {nbx}, {block}, {bx};"));
        let thread = self.e.reg(PtxTy::B32);
        self.e.line(&format!("mad.lo.u32 {thread}, {nty}, {tz}, {ty};"));
        self.e.line(&format!("mad.lo.u32 {thread}, {ntx}, {thread}, {tx};"));
        let key = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.b64 {key}, {{{thread}, {block}}};"));
        key
    }
}
