//! Derived types: definitions become IR structs (scalar components as
//! fields, fixed-size array components as IR arrays, an allocatable array
//! component as its base pointer followed by its lower bounds, extents and
//! strides, so that it is an ordinary `ArrVar` whose locations are
//! member places); component references `s%x`, `s%a(i)`, `ps(i)%v(2:n)`;
//! structure constructors `point(1.0, 2.0)`; default component values.

use super::consts::ConstVal;
use super::cx::{ArrVar, Comp, Cx, DType, Loc, Sym, R};
use super::types::FType;
use crate::ast::{self, ArgValue, Attr, Bound};
use accjit_ir::{build, ExprId, ExprKind, Field, Span, StmtKind, StructDef, Type};

impl Cx<'_> {
    /// A `type ... end type` definition.
    pub fn derived_type(&mut self, t: &ast::DerivedType) -> R<()> {
        if let Some(&idx) = self.sh.dtype_at.get(&(t.span.file, t.span.lo)) {
            self.define(&t.name.text, Sym::Type(idx));
            return Ok(());
        }
        if t.extends.is_some() {
            return Err(self.err(t.span, format!("type `{}`: type extension is not supported", t.name.text)));
        }
        let mut comps = vec![];
        let mut fields: Vec<(String, Type)> = vec![];
        for td in &t.components {
            let ty = match &td.ty.base {
                ast::BaseType::Derived(n) if n.text == t.name.text => return Err(self.err(n.span, "a type cannot contain itself")),
                _ => self.resolve_type(&td.ty, None)?,
            };
            let allocatable = td.attrs.iter().any(|a| matches!(a, Attr::Allocatable | Attr::Pointer));
            let pointer = td.attrs.iter().any(|a| matches!(a, Attr::Pointer));
            let attr_dims = td.attrs.iter().find_map(|a| if let Attr::Dimension(d) = a { Some(d.clone()) } else { None });
            for e in &td.entities {
                let ty = match &e.char_len {
                    Some(_) => self.resolve_type(&td.ty, e.char_len.as_ref())?,
                    None => ty.clone(),
                };
                let dims = e.dims.clone().or_else(|| attr_dims.clone());
                let field = fields.len() as u32;
                let init = match &e.init {
                    Some(ast::Init::Expr(x)) => match self.fold(x) {
                        Some((v, _)) => Some(v.convert(&ty).unwrap_or(v)),
                        None => return Err(self.err(x.span, "a default component value must be a constant")),
                    },
                    _ => None,
                };
                match dims {
                    None => {
                        if allocatable {
                            return Err(self.err(e.span, "allocatable and pointer scalar components are not supported"));
                        }
                        fields.push((e.name.text.clone(), ty.ir()));
                        comps.push(Comp { name: e.name.text.clone(), ty: ty.clone(), field, dims: None, rank: 0, allocatable: false, pointer: false, init });
                    }
                    Some(ds) => {
                        let rank = ds.len();
                        if allocatable {
                            fields.push((e.name.text.clone(), Type::ptr(ty.ir())));
                            for k in 0..rank {
                                fields.push((format!("{}.lb{k}", e.name.text), Type::I64));
                            }
                            for k in 0..rank {
                                fields.push((format!("{}.n{k}", e.name.text), Type::I64));
                            }
                            for k in (if pointer { 0 } else { 1 })..rank {
                                fields.push((format!("{}.s{k}", e.name.text), Type::I64));
                            }
                            comps.push(Comp { name: e.name.text.clone(), ty: ty.clone(), field, dims: None, rank, allocatable: !pointer, pointer, init: None });
                        } else {
                            let mut fixed = vec![];
                            for d in &ds {
                                let lo = match &d.lower {
                                    None => 1,
                                    Some(l) => {
                                        self.fold(l).and_then(|v| v.0.as_int()).ok_or_else(|| self.err(d.span, "a component's bounds must be constants"))?
                                    }
                                };
                                let hi = match &d.upper {
                                    Bound::Expr(u) => {
                                        self.fold(u).and_then(|v| v.0.as_int()).ok_or_else(|| self.err(d.span, "a component's bounds must be constants"))?
                                    }
                                    _ => return Err(self.err(d.span, "an array component needs constant bounds or allocatable")),
                                };
                                fixed.push((lo, (hi - lo + 1).max(0)));
                            }
                            let n: i64 = fixed.iter().map(|x| x.1).product();
                            fields.push((e.name.text.clone(), Type::Array(Box::new(ty.ir()), Some(n.max(1) as u64))));
                            comps.push(Comp {
                                name: e.name.text.clone(),
                                ty: ty.clone(),
                                field,
                                dims: Some(fixed),
                                rank,
                                allocatable: false,
                                pointer: false,
                                init,
                            });
                        }
                    }
                }
            }
        }
        // Layout.
        let mut off = 0u64;
        let mut align = 1u64;
        let mut out = vec![];
        for (name, ty) in fields {
            let a = accjit_ir::types::align_of(&ty, &self.sh.m.structs);
            let sz = accjit_ir::types::size_of(&ty, &self.sh.m.structs);
            off = off.div_ceil(a) * a;
            out.push(Field { name, ty, offset: off });
            off += sz;
            align = align.max(a);
        }
        let size = off.div_ceil(align).max(1) * align;
        let idx = self.sh.m.structs.len();
        self.sh.m.structs.push(StructDef { name: t.name.text.clone(), is_union: false, fields: out, size, align, complete: true });
        self.sh.dtypes.push(DType { name: t.name.text.clone(), comps });
        self.sh.dtype_at.insert((t.span.file, t.span.lo), idx);
        self.define(&t.name.text, Sym::Type(idx));
        Ok(())
    }

    /// The derived type named `n`, as a type.
    pub fn derived_ftype(&self, n: &ast::Name) -> R<FType> {
        match self.lookup(&n.text) {
            Some(Sym::Type(i)) => Ok(FType::Derived(*i, self.sh.m.structs[*i].size)),
            _ => Err(self.err(n.span, format!("unknown type `{}`", n.text))),
        }
    }

    fn comp(&self, ty: &FType, name: &ast::Name) -> R<Comp> {
        let FType::Derived(i, _) = ty else {
            return Err(self.err(name.span, format!("`%{}` on a value of {}, not of a derived type", name.text, ty.name())));
        };
        let d = &self.sh.dtypes[*i];
        d.comps.iter().find(|c| c.name == name.text).cloned().ok_or_else(|| self.err(name.span, format!("type `{}` has no component `{}`", d.name, name.text)))
    }

    /// The place of a structure (`s`, `ps(i)`, `s%inner`) and its type.
    fn struct_place(&mut self, base: &ast::Expr) -> R<(ExprId, FType)> {
        // `ps%x` on an array of structures: the current element's, inside a
        // scalarised loop.
        if self.rank_of(base) > 0 && self.elem.is_some() {
            let (p, t) = self.place_of(base)?;
            if !matches!(t, FType::Derived(..)) {
                return Err(self.err(base.span, format!("a component of {}: not a derived type", t.name())));
            }
            return Ok((p, t));
        }
        let saved = self.elem.take();
        let r = self.place_of(base);
        self.elem = saved;
        let (p, t) = r?;
        if !matches!(t, FType::Derived(..)) {
            return Err(self.err(base.span, format!("a component of {}: not a derived type", t.name())));
        }
        Ok((p, t))
    }

    /// The member place `base%name` for a scalar component.
    pub fn component_place(&mut self, base: &ast::Expr, name: &ast::Name, sp: Span) -> R<(ExprId, FType)> {
        let (sp_place, sty) = self.struct_place(base)?;
        let c = self.comp(&sty, name)?;
        if c.rank > 0 {
            if self.elem.is_some() {
                let a = self.comp_array_at(sp_place, &c, sp);
                let full: Vec<ast::Arg> =
                    (0..c.rank).map(|_| ast::Arg { keyword: None, value: ArgValue::Range { lo: None, hi: None, stride: None }, span: sp }).collect();
                return self.array_designator(&a, &full, sp);
            }
            return Err(self.err(sp, format!("component `{}` is an array; a scalar is needed here", name.text)));
        }
        let fty = self.sh.m.structs[struct_index(&sty)].fields[c.field as usize].ty.clone();
        let p = self.mk(ExprKind::Member(sp_place, c.field), fty, sp);
        Ok((p, c.ty))
    }

    /// The array a component reference `base%name` denotes, if it is an array component.
    pub fn comp_array(&mut self, e: &ast::Expr) -> R<Option<ArrVar>> {
        let ast::ExprKind::Component { base, name } = &e.kind else { return Ok(None) };
        let (sp_place, sty) = self.struct_place(base)?;
        let c = self.comp(&sty, name)?;
        if c.rank == 0 {
            return Ok(None);
        }
        Ok(Some(self.comp_array_at(sp_place, &c, e.span)))
    }

    fn comp_array_at(&mut self, sp_place: ExprId, c: &Comp, sp: Span) -> ArrVar {
        let sty = self.f.expr(sp_place).ty.clone();
        let Type::Struct(id) = sty else { unreachable!() };
        let fields = self.sh.m.structs[id.0 as usize].fields.clone();
        let member = |cx: &mut Self, k: u32| -> ExprId {
            let p = cx.clone_expr(sp_place);
            cx.mk(ExprKind::Member(p, k), fields[k as usize].ty.clone(), sp)
        };
        let (base, lb, ext, stride) = match &c.dims {
            Some(fixed) => {
                let m = member(self, c.field);
                let lb: Vec<Loc> = fixed.iter().map(|x| Loc::Const(x.0)).collect();
                let ext: Vec<Loc> = fixed.iter().map(|x| Loc::Const(x.1)).collect();
                let mut stride = vec![Loc::Const(1)];
                let mut acc = 1;
                for x in &fixed[..fixed.len() - 1] {
                    acc *= x.1;
                    stride.push(Loc::Const(acc));
                }
                (Loc::ArrAt(m), lb, ext, stride)
            }
            None => {
                let r = c.rank as u32;
                let base = Loc::Place(member(self, c.field));
                let lb = (0..r).map(|k| Loc::Place(member(self, c.field + 1 + k))).collect();
                let ext = (0..r).map(|k| Loc::Place(member(self, c.field + 1 + r + k))).collect();
                let stride = if c.pointer {
                    (0..r).map(|k| Loc::Place(member(self, c.field + 1 + 2 * r + k))).collect()
                } else {
                    let mut s = vec![Loc::Const(1)];
                    s.extend((1..r).map(|k| Loc::Place(member(self, c.field + 2 * r + k))));
                    s
                };
                (base, lb, ext, stride)
            }
        };
        ArrVar {
            name: c.name.clone(),
            ty: c.ty.clone(),
            base,
            lb,
            ext,
            stride,
            allocatable: c.allocatable,
            pointer: c.pointer,
            assumed_size: false,
            present: None,
            span: sp,
        }
    }

    /// A structure constructor `t(v1, v2, ...)` into a temporary.
    pub fn struct_ctor(&mut self, idx: usize, args: &[ast::Arg], sp: Span) -> R<super::expr::Val> {
        let d = self.sh.dtypes[idx].clone();
        let ty = FType::Derived(idx, self.sh.m.structs[idx].size);
        let l = self.new_local("ctor", ty.ir(), sp);
        self.emit(StmtKind::Decl(l, None), sp);
        let p = build::local(&mut self.f, l, sp);
        self.emit(StmtKind::ZeroFill(p), sp);
        self.default_init(Loc::Local(l), idx, sp)?;
        for (i, a) in args.iter().enumerate() {
            let c = match &a.keyword {
                Some(k) => {
                    d.comps.iter().find(|c| c.name == k.text).ok_or_else(|| self.err(k.span, format!("type `{}` has no component `{}`", d.name, k.text)))?
                }
                None => d.comps.get(i).ok_or_else(|| self.err(a.span, format!("type `{}` has {} components", d.name, d.comps.len())))?,
            };
            let ArgValue::Expr(x) = &a.value else { return Err(self.err(a.span, "a component value")) };
            if c.rank > 0 {
                // Element by element (a scalar broadcasts).
                let sp_place = build::local(&mut self.f, l, sp);
                let arr = self.comp_array_at(sp_place, c, sp);
                let shape: Vec<ExprId> = arr.ext.iter().map(|e| self.get(*e, sp)).collect();
                let saved = self.elem.take();
                self.materialise(x)?;
                let r = self.nest(&shape, sp, &mut |cx, idx| {
                    cx.elem = Some(idx.to_vec());
                    let r = (|| {
                        let v = cx.value(x)?;
                        let v = cx.convert(&v, &arr.ty, sp)?;
                        let subs: Vec<ExprId> = idx
                            .iter()
                            .zip(&arr.lb)
                            .map(|(&k, lb)| {
                                let kv = build::load_local(&mut cx.f, k, sp);
                                let l = cx.get(*lb, sp);
                                cx.bin(accjit_ir::BinOp::Add, kv, l, Type::I64, sp)
                            })
                            .collect();
                        let p = cx.elem_place(&arr, &subs, sp);
                        let a = build::assign(&mut cx.f, p, v, sp);
                        cx.emit_expr(a, sp);
                        Ok(())
                    })();
                    cx.elem = None;
                    r
                });
                self.elem = saved;
                r?;
                continue;
            }
            let v = self.value(x)?;
            let v = self.convert(&v, &c.ty, sp)?;
            let sp_place = build::local(&mut self.f, l, sp);
            let fty = self.sh.m.structs[idx].fields[c.field as usize].ty.clone();
            let m = self.mk(ExprKind::Member(sp_place, c.field), fty, sp);
            let asg = build::assign(&mut self.f, m, v, sp);
            self.emit_expr(asg, sp);
        }
        let e = build::load_local(&mut self.f, l, sp);
        Ok(super::expr::Val { e, ty })
    }

    /// Store the default component values of type `idx` into the structure at `loc`.
    pub fn default_init(&mut self, loc: Loc, idx: usize, sp: Span) -> R<()> {
        let d = self.sh.dtypes[idx].clone();
        for c in &d.comps {
            let Some(v) = &c.init else { continue };
            let p = self.place(loc, sp);
            let fty = self.sh.m.structs[idx].fields[c.field as usize].ty.clone();
            let m = self.mk(ExprKind::Member(p, c.field), fty.clone(), sp);
            if let Type::Array(_, Some(n)) = fty {
                // Every element of a fixed-size array component.
                let n = self.i64c(n as i64, sp);
                let v = v.clone();
                let ty = c.ty.clone();
                self.counted_loop(n, sp, |cx, k| {
                    let m2 = cx.clone_expr(m);
                    let elem = super::cx::elem_of(&cx.f.expr(m).ty);
                    let base = cx.mk(ExprKind::AddrOf(m2), Type::ptr(elem), sp);
                    let kv = build::load_local(&mut cx.f, k, sp);
                    let bt = cx.ty(base);
                    let at = cx.bin(accjit_ir::BinOp::Add, base, kv, bt, sp);
                    let place = build::deref(&mut cx.f, at, sp);
                    let val = cx.const_val(&v, &ty, sp)?;
                    let a = build::assign(&mut cx.f, place, val.e, sp);
                    cx.emit_expr(a, sp);
                    Ok(())
                })?;
                continue;
            }
            let val = self.const_val(v, &c.ty, sp)?;
            let a = build::assign(&mut self.f, m, val.e, sp);
            self.emit_expr(a, sp);
        }
        Ok(())
    }

    /// The initial bytes of a global of derived type `idx` (its default values).
    pub fn default_bytes(&self, idx: usize) -> Option<Vec<u8>> {
        let d = &self.sh.dtypes[idx];
        if d.comps.iter().all(|c| c.init.is_none()) {
            return None;
        }
        let st = &self.sh.m.structs[idx];
        let mut bytes = vec![0u8; st.size as usize];
        for c in &d.comps {
            if let Some(v) = &c.init {
                let b = v.bytes(&c.ty);
                let f = &st.fields[c.field as usize];
                let n = match f.ty {
                    Type::Array(_, Some(n)) => n as usize,
                    _ => 1,
                };
                for k in 0..n {
                    let off = f.offset as usize + k * b.len();
                    bytes[off..off + b.len()].copy_from_slice(&b);
                }
            }
        }
        Some(bytes)
    }
}

pub(crate) fn struct_index(t: &FType) -> usize {
    match t {
        FType::Derived(i, _) => *i,
        _ => 0,
    }
}

#[allow(dead_code)]
fn unused(_: ConstVal) {}
