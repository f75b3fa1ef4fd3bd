//! Initialisers: parsing (braces, designators `.x =` and `[3] =`, string
//! literals) and laying them out onto an object with C's brace elision.
//!
//! `layout` flattens an initialiser into leaves addressed by a *path* of
//! member/element indices from the initialised object. Globals turn the leaves
//! into constant bytes plus relocations (`GlobalInit`); locals into a
//! `ZeroFill` followed by one store per leaf.

use super::consteval::CVal;
use super::ctype::{ArrLen, CType};
use super::expr::{CExpr, Cat};
use super::literal::StrLit;
use super::{PResult, Parser};
use crate::token::TokenKind;
use accjit_ir::{ExprKind, GlobalInit, LocalId, Reloc, Scalar, Span, Stmt, StmtKind, Type};

#[derive(Clone, Debug)]
pub enum Desig {
    Field(String, Span),
    Index(i64, Span),
}

#[derive(Clone, Debug)]
pub enum InitNode {
    Expr(CExpr),
    /// A string literal (elements with the NUL), kept raw for character
    /// array targets (`char[]`, or `wchar_t[]` and the like for wide ones).
    Str(StrLit, Span),
    List(Vec<InitItem>, Span),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    pub desig: Vec<Desig>,
    pub node: InitNode,
}

#[derive(Clone, Debug)]
enum Leaf {
    Expr(CExpr),
    Str(StrLit, Span),
}

type Leaves = Vec<(Vec<u32>, CType, Leaf)>;

impl InitNode {
    fn span(&self) -> Span {
        match self {
            InitNode::Expr(e) => e.span,
            InitNode::Str(_, s) | InitNode::List(_, s) => *s,
        }
    }
}

impl<'a> Parser<'a> {
    /// An initialiser after `=`.
    pub fn initializer(&mut self) -> PResult<InitNode> {
        if self.is_p("{") {
            let lb = self.bump().span;
            let mut items = vec![];
            while !self.is_p("}") {
                let mut desig = vec![];
                loop {
                    if self.is_p(".") {
                        self.bump();
                        let (n, sp) = self.expect_ident("a member name")?;
                        desig.push(Desig::Field(n, sp));
                    } else if self.is_p("[") {
                        let sp = self.bump().span;
                        let (v, _) = self.const_int_expr()?;
                        self.expect_p("]")?;
                        desig.push(Desig::Index(v, sp));
                    } else {
                        break;
                    }
                }
                if !desig.is_empty() {
                    self.expect_p("=")?;
                }
                let node = self.initializer()?;
                items.push(InitItem { desig, node });
                if !self.eat_p(",") {
                    break;
                }
            }
            let rb = self.expect_p("}")?;
            return Ok(InitNode::List(items, lb.to(rb)));
        }
        if self.peek().kind == TokenKind::Str {
            // A lone string literal (not part of a larger expression).
            let mut k = 0;
            while self.peek_at(k).kind == TokenKind::Str {
                k += 1;
            }
            let after = self.peek_at(k);
            if after.is_punct(",") || after.is_punct("}") || after.is_punct(";") {
                let (lit, sp) = self.string_lit()?;
                return Ok(InitNode::Str(lit, sp));
            }
        }
        Ok(InitNode::Expr(self.assign_expr()?))
    }

    fn member_type(&mut self, ty: &CType, idx: u64, sp: Span) -> PResult<CType> {
        match ty {
            CType::Array(e, ArrLen::Fixed(n)) => {
                if idx >= *n {
                    return self.err(sp, format!("array index {} is out of bounds in initialiser", idx));
                }
                Ok((**e).clone())
            }
            CType::Array(e, _) => Ok((**e).clone()),
            CType::Struct(id) => match self.struct_ctypes.get(&id.0).and_then(|v| v.get(idx as usize)) {
                Some(t) => Ok(t.clone()),
                None => self.err(sp, "excess elements in struct initialiser"),
            },
            _ => self.err(sp, "excess elements in scalar initialiser"),
        }
    }

    fn count_of(&self, ty: &CType) -> Option<u64> {
        match ty {
            CType::Array(_, ArrLen::Fixed(n)) => Some(*n),
            CType::Array(..) => None,
            CType::Struct(id) => {
                let d = &self.m.structs[id.0 as usize];
                Some(if d.is_union { d.fields.len().min(1) as u64 } else { d.fields.len() as u64 })
            }
            _ => Some(1),
        }
    }

    fn designate(&mut self, ty: &CType, d: &Desig) -> PResult<(u64, CType)> {
        match (d, ty) {
            (Desig::Index(i, sp), CType::Array(..)) => {
                if *i < 0 {
                    return self.err(*sp, "array index in initialiser is negative");
                }
                let t = self.member_type(ty, *i as u64, *sp)?;
                Ok((*i as u64, t))
            }
            (Desig::Field(n, sp), CType::Struct(id)) => {
                let d = &self.m.structs[id.0 as usize];
                match d.fields.iter().position(|f| &f.name == n) {
                    Some(k) => {
                        let t = self.member_type(ty, k as u64, *sp)?;
                        Ok((k as u64, t))
                    }
                    None => {
                        let tn = self.tyname(ty);
                        self.err(*sp, format!("no member named '{}' in '{}'", n, tn))
                    }
                }
            }
            (Desig::Index(_, sp), _) => {
                let tn = self.tyname(ty);
                self.err(*sp, format!("array designator used on a non-array type '{}'", tn))
            }
            (Desig::Field(_, sp), _) => {
                let tn = self.tyname(ty);
                self.err(*sp, format!("field designator used on a non-struct type '{}'", tn))
            }
        }
    }

    /// Whether `node` is a string literal initialising array `ty` element by
    /// element: an array of integers of the literal's element size (`char`
    /// for narrow literals, `wchar_t`/`char16_t`/`char32_t` for wide ones).
    fn is_string_for(ty: &CType, node: &InitNode) -> bool {
        let InitNode::Str(lit, _) = node else { return false };
        matches!(ty, CType::Array(e, _) if matches!(**e, CType::Scalar(s) if s.is_int() && s != Scalar::Bool && s.size() as usize == lit.elem_size()))
    }

    fn push_scalar(&mut self, ty: &CType, node: &InitNode, path: Vec<u32>, out: &mut Leaves) -> PResult<()> {
        match node {
            InitNode::Expr(e) => {
                out.push((path, ty.clone(), Leaf::Expr(e.clone())));
                Ok(())
            }
            InitNode::Str(lit, sp) => {
                if Self::is_string_for(ty, node) {
                    out.push((path, ty.clone(), Leaf::Str(lit.clone(), *sp)));
                } else {
                    let g = self.str_lit_global(lit.clone(), *sp);
                    out.push((path, ty.clone(), Leaf::Expr(g)));
                }
                Ok(())
            }
            InitNode::List(items, sp) => {
                // `int x = {5};`
                match items.first() {
                    None => Ok(()),
                    Some(it) if it.desig.is_empty() => {
                        if items.len() > 1 {
                            return self.err(*sp, "excess elements in scalar initialiser");
                        }
                        self.push_scalar(ty, &it.node, path, out)
                    }
                    Some(_) => self.err(*sp, "designator in a scalar initialiser"),
                }
            }
        }
    }

    /// Initialise one object of type `ty` from one initialiser node.
    fn init_object(&mut self, ty: &CType, node: &InitNode, path: Vec<u32>, out: &mut Leaves) -> PResult<()> {
        let aggregate = matches!(ty, CType::Array(..) | CType::Struct(_));
        match node {
            InitNode::List(items, sp) if aggregate => {
                let mut i = 0;
                self.init_list(ty, items, &mut i, &path, out, true, false)?;
                if i < items.len() {
                    return self.err(items[i].node.span().to(*sp), "excess elements in initialiser");
                }
                Ok(())
            }
            InitNode::Str(..) if Self::is_string_for(ty, node) => self.push_scalar(ty, node, path, out),
            InitNode::Expr(e) if aggregate => {
                if matches!(ty, CType::Struct(_)) && e.ty == *ty {
                    return self.push_scalar(ty, node, path, out);
                }
                // Brace elision from a designated value: a one-item list.
                let items = vec![InitItem { desig: vec![], node: node.clone() }];
                let mut i = 0;
                self.init_list(ty, &items, &mut i, &path, out, false, false)
            }
            _ if aggregate => {
                let tn = self.tyname(ty);
                self.err(node.span(), format!("invalid initialiser for an object of type '{}'", tn))
            }
            _ => self.push_scalar(ty, node, path, out),
        }
    }

    /// Consume items from `items[*i..]` into the members of `ty`. A braced
    /// level owns its designators; a brace-elided level stops at one.
    #[allow(clippy::too_many_arguments)]
    fn init_list(&mut self, ty: &CType, items: &[InitItem], i: &mut usize, path: &[u32], out: &mut Leaves, braced: bool, mut skip_desig: bool) -> PResult<()> {
        let count = self.count_of(ty);
        let is_union = matches!(ty, CType::Struct(id) if self.m.structs[id.0 as usize].is_union);
        let mut cur: u64 = 0;
        let mut first = true;
        while *i < items.len() {
            let it = &items[*i];
            let has_desig = !it.desig.is_empty() && !skip_desig;
            skip_desig = false;
            if has_desig {
                if !braced {
                    return Ok(());
                }
                let (idx, sub) = self.designate(ty, &it.desig[0])?;
                cur = idx;
                let mut p = path.to_vec();
                p.push(cur as u32);
                if it.desig.len() > 1 {
                    self.init_designated(&sub, &it.desig[1..], &it.node, p, out)?;
                    *i += 1;
                } else {
                    self.init_member(&sub, items, i, p, out)?;
                }
            } else {
                let full = count.map(|n| cur >= n).unwrap_or(false) || (is_union && !first);
                if full {
                    return if braced { self.err(it.node.span(), "excess elements in initialiser") } else { Ok(()) };
                }
                let sub = self.member_type(ty, cur, it.node.span())?;
                let mut p = path.to_vec();
                p.push(cur as u32);
                self.init_member(&sub, items, i, p, out)?;
            }
            cur += 1;
            first = false;
        }
        Ok(())
    }

    fn init_member(&mut self, sub: &CType, items: &[InitItem], i: &mut usize, path: Vec<u32>, out: &mut Leaves) -> PResult<()> {
        let it = &items[*i];
        let aggregate = matches!(sub, CType::Array(..) | CType::Struct(_));
        match &it.node {
            InitNode::List(..) => {
                self.init_object(sub, &it.node, path, out)?;
                *i += 1;
            }
            InitNode::Str(..) if Self::is_string_for(sub, &it.node) => {
                self.push_scalar(sub, &it.node, path, out)?;
                *i += 1;
            }
            InitNode::Expr(e) if aggregate && !(matches!(sub, CType::Struct(_)) && e.ty == *sub) => {
                self.init_list(sub, items, i, &path, out, false, true)?;
            }
            InitNode::Str(..) if aggregate => {
                self.init_list(sub, items, i, &path, out, false, true)?;
            }
            _ => {
                self.push_scalar(sub, &it.node, path, out)?;
                *i += 1;
            }
        }
        Ok(())
    }

    fn init_designated(&mut self, ty: &CType, desig: &[Desig], node: &InitNode, path: Vec<u32>, out: &mut Leaves) -> PResult<()> {
        if desig.is_empty() {
            return self.init_object(ty, node, path, out);
        }
        let (idx, sub) = self.designate(ty, &desig[0])?;
        let mut p = path;
        p.push(idx as u32);
        self.init_designated(&sub, &desig[1..], node, p, out)
    }

    fn layout(&mut self, ty: &CType, node: &InitNode) -> PResult<Leaves> {
        let mut out = vec![];
        self.init_object(ty, node, vec![], &mut out)?;
        Ok(out)
    }

    /// Length of `T x[] = init`.
    pub fn init_array_len(&mut self, ty: &CType, node: &InitNode) -> PResult<u64> {
        if let InitNode::Str(lit, _) = node {
            if Self::is_string_for(ty, node) {
                return Ok(lit.elems.len() as u64);
            }
        }
        let leaves = self.layout(ty, node)?;
        Ok(leaves.iter().filter_map(|(p, _, _)| p.first()).map(|&i| i as u64 + 1).max().unwrap_or(0))
    }

    fn path_offset(&self, ty: &CType, path: &[u32]) -> u64 {
        let mut off = 0;
        let mut t = ty.clone();
        for &k in path {
            t = match &t {
                CType::Array(e, _) => {
                    off += k as u64 * e.size(&self.m.structs).unwrap_or(0);
                    (**e).clone()
                }
                CType::Struct(id) => {
                    off += self.m.structs[id.0 as usize].fields[k as usize].offset;
                    self.struct_ctypes[&id.0][k as usize].clone()
                }
                t => t.clone(),
            };
        }
        off
    }

    /// The bit-field at the end of `path`, if it is one.
    fn path_bitfield(&self, ty: &CType, path: &[u32]) -> Option<super::bitfield::BitInfo> {
        let mut t = ty.clone();
        let mut last = None;
        for &k in path {
            last = None;
            t = match &t {
                CType::Array(e, _) => (**e).clone(),
                CType::Struct(id) => {
                    last = self.bitfield(*id, k);
                    self.struct_ctypes[&id.0][k as usize].clone()
                }
                t => t.clone(),
            };
        }
        last
    }

    /// Constant bytes and relocations of a global's initialiser.
    pub fn global_init(&mut self, ty: &CType, node: &InitNode) -> PResult<GlobalInit> {
        let leaves = self.layout(ty, node)?;
        let size = ty.size(&self.m.structs).unwrap_or(0) as usize;
        let mut bytes = vec![0u8; size];
        let mut relocs = vec![];
        for (path, lty, leaf) in leaves {
            let off = self.path_offset(ty, &path) as usize;
            match leaf {
                Leaf::Str(lit, sp) => {
                    let cap = lty.size(&self.m.structs).unwrap_or(0) as usize;
                    let es = lit.elem_size();
                    if lit.elems.len() * es > cap + es {
                        return self.err(sp, "initialiser string is longer than the array");
                    }
                    for (k, v) in lit.bytes().iter().enumerate().take(cap) {
                        if off + k < bytes.len() {
                            bytes[off + k] = *v;
                        }
                    }
                }
                Leaf::Expr(e) => {
                    let sp = e.span;
                    let v = self.conv_assign(e, &lty, "initialisation")?;
                    let cv = self.const_value(v.id);
                    let sz = lty.size(&self.m.structs).unwrap_or(0) as usize;
                    if let Some(bi) = self.path_bitfield(ty, &path) {
                        let Some(CVal::Int(x)) = cv else { return self.err(sp, "initialiser element is not a compile-time constant") };
                        let mut unit = [0u8; 8];
                        unit[..sz].copy_from_slice(&bytes[off..off + sz]);
                        let u = u64::from_le_bytes(unit) | (((x as u64) & super::bitfield::mask(bi.width)) << bi.bit);
                        bytes[off..off + sz].copy_from_slice(&u.to_le_bytes()[..sz]);
                        continue;
                    }
                    match (cv, &lty) {
                        (Some(CVal::Int(x)), _) if sz <= 8 => {
                            let le = x.to_le_bytes();
                            bytes[off..off + sz].copy_from_slice(&le[..sz]);
                        }
                        (Some(CVal::Float(x)), CType::Scalar(Scalar::F32)) => bytes[off..off + 4].copy_from_slice(&(x as f32).to_le_bytes()),
                        (Some(CVal::Float(x)), CType::Scalar(Scalar::F64)) => bytes[off..off + 8].copy_from_slice(&x.to_le_bytes()),
                        (Some(CVal::Addr(t, a)), _) if sz == 8 => relocs.push(Reloc { offset: off as u64, target: t, addend: a }),
                        _ => {
                            if let Some((re, im)) = self.const_complex(v.id) {
                                match lty {
                                    CType::Complex(Scalar::F32) => {
                                        bytes[off..off + 4].copy_from_slice(&(re as f32).to_le_bytes());
                                        bytes[off + 4..off + 8].copy_from_slice(&(im as f32).to_le_bytes());
                                    }
                                    _ => {
                                        bytes[off..off + 8].copy_from_slice(&re.to_le_bytes());
                                        bytes[off + 8..off + 16].copy_from_slice(&im.to_le_bytes());
                                    }
                                }
                                continue;
                            }
                            return self.err(sp, "initialiser element is not a compile-time constant");
                        }
                    }
                }
            }
        }
        Ok(GlobalInit { bytes, relocs })
    }

    /// A constant complex value (`1.0 + 2.0*I` folds through MakeComplex/Cast).
    fn const_complex(&self, id: accjit_ir::ExprId) -> Option<(f64, f64)> {
        let e = self.ex(id);
        let as_f = |v: Option<CVal>| match v {
            Some(CVal::Float(x)) => Some(x),
            Some(CVal::Int(x)) => Some(x as f64),
            _ => None,
        };
        match &e.kind {
            ExprKind::MakeComplex(a, b) => Some((as_f(self.const_value(*a))?, as_f(self.const_value(*b))?)),
            ExprKind::Cast(a) => match &self.ex(*a).ty {
                Type::Complex(_) => self.const_complex(*a),
                _ => Some((as_f(self.const_value(*a))?, 0.0)),
            },
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.const_complex(*a)?, self.const_complex(*b)?);
                match op {
                    accjit_ir::BinOp::Add => Some((x.0 + y.0, x.1 + y.1)),
                    accjit_ir::BinOp::Sub => Some((x.0 - y.0, x.1 - y.1)),
                    accjit_ir::BinOp::Mul => Some((x.0 * y.0 - x.1 * y.1, x.0 * y.1 + x.1 * y.0)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Statements initialising local `l` of type `ty` from `node` (after its `Decl`).
    pub fn init_local(&mut self, l: LocalId, ty: &CType, node: &InitNode, nsp: Span) -> PResult<Vec<Stmt>> {
        let mut stmts = vec![];
        let scalar_like = !matches!(ty, CType::Array(..) | CType::Struct(_));
        let whole = match node {
            InitNode::Expr(e) if scalar_like || (matches!(ty, CType::Struct(_)) && e.ty == *ty) => Some(e.clone()),
            InitNode::List(items, _) if scalar_like && items.len() == 1 && items[0].desig.is_empty() => match &items[0].node {
                InitNode::Expr(e) => Some(e.clone()),
                _ => None,
            },
            _ => None,
        };
        if let Some(e) = whole {
            let v = self.conv_assign(e, ty, "initialisation")?;
            stmts.append(&mut self.pending);
            stmts.push(Stmt { kind: StmtKind::Decl(l, Some(v.id)), span: nsp });
            return Ok(stmts);
        }
        let leaves = self.layout(ty, node)?;
        stmts.append(&mut self.pending);
        stmts.push(Stmt { kind: StmtKind::Decl(l, None), span: nsp });
        let z = self.mk(ExprKind::Local(l), ty.ir(), nsp);
        stmts.push(Stmt { kind: StmtKind::ZeroFill(z), span: nsp });
        for (path, lty, leaf) in leaves {
            match leaf {
                Leaf::Expr(e) => {
                    let sp = e.span;
                    let v = self.conv_assign(e, &lty, "initialisation")?;
                    let place = self.path_place(l, ty, &path, sp)?;
                    let a = match place.cat {
                        Cat::Bit { bit, width, .. } => self.bitfield_write(&place, v, super::bitfield::BitInfo { bit: bit as u32, width: width as u32 }, sp).id,
                        _ => self.mk(ExprKind::Assign(place.id, v.id), lty.ir(), sp),
                    };
                    stmts.push(Stmt { kind: StmtKind::Expr(a), span: sp });
                }
                Leaf::Str(lit, sp) => {
                    let elem = lty.elem().cloned().unwrap_or(CType::CHAR);
                    let es = lit.elem_size();
                    let cap = lty.size(&self.m.structs).unwrap_or(0) as usize / es.max(1);
                    if lit.elems.len() > cap + 1 {
                        return self.err(sp, "initialiser string is longer than the array");
                    }
                    let s = elem.scalar().unwrap_or(Scalar::I8);
                    for (k, v) in lit.elems.iter().enumerate().take(cap) {
                        if *v == 0 {
                            continue;
                        }
                        let mut p = path.clone();
                        p.push(k as u32);
                        let place = self.path_place(l, ty, &p, sp)?;
                        let c = self.mk(ExprKind::Int(super::consteval::wrap(*v as i64, s)), elem.ir(), sp);
                        let a = self.mk(ExprKind::Assign(place.id, c), elem.ir(), sp);
                        stmts.push(Stmt { kind: StmtKind::Expr(a), span: sp });
                    }
                }
            }
        }
        Ok(stmts)
    }

    /// `(T){ … }`: an unnamed object (a local initialised just before the
    /// statement that uses it, or a global at file scope).
    pub fn compound_literal(&mut self, ty: CType, lp: Span) -> PResult<CExpr> {
        let node = self.initializer()?;
        let mut ty = ty;
        if let CType::Array(e, ArrLen::Incomplete) = &ty {
            let n = self.init_array_len(&ty, &node)?;
            ty = CType::Array(e.clone(), ArrLen::Fixed(n));
        }
        if ty.size(&self.m.structs).is_none() {
            let tn = self.tyname(&ty);
            return self.err(lp, format!("compound literal has incomplete type '{}'", tn));
        }
        let sp = lp.to(self.prev_span());
        if self.fb.is_none() {
            let gi = self.global_init(&ty, &node)?;
            self.anon += 1;
            self.m.globals.push(accjit_ir::Global {
                name: format!(".compound.{}", self.anon),
                ty: ty.ir(),
                linkage: accjit_ir::Linkage::Internal,
                init: Some(gi),
                is_const: false,
                declare: None,
                span: sp,
            });
            let g = accjit_ir::GlobalId(self.m.globals.len() as u32 - 1);
            let id = self.mk(ExprKind::Global(g), ty.ir(), sp);
            return Ok(CExpr { id, ty, cat: Cat::Place { is_const: false }, span: sp });
        }
        let l = self.func_mut().add_local(".compound", ty.ir(), sp);
        let stmts = self.init_local(l, &ty, &node, sp)?;
        self.pending.extend(stmts);
        Ok(self.local_place(l, &ty, sp))
    }

    /// The place of the sub-object at `path` inside local `l` of type `ty`.
    fn path_place(&mut self, l: LocalId, ty: &CType, path: &[u32], sp: Span) -> PResult<CExpr> {
        let mut e = self.local_place(l, ty, sp);
        for &k in path {
            e = match &e.ty {
                CType::Array(..) => {
                    let i = self.int_const(k as i64, CType::LONG, sp);
                    self.index(e, i, sp)?
                }
                CType::Struct(sid) => {
                    let sid = *sid;
                    let fty = self.struct_ctypes[&sid.0][k as usize].clone();
                    let id = self.mk(ExprKind::Member(e.id, k), fty.ir(), sp);
                    let cat = match self.bitfield(sid, k) {
                        Some(b) => Cat::Bit { is_const: false, bit: b.bit as u8, width: b.width as u8 },
                        None => Cat::Place { is_const: false },
                    };
                    CExpr { id, ty: fty, cat, span: sp }
                }
                _ => e,
            };
        }
        Ok(e)
    }
}
