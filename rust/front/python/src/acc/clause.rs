//! Clause keywords (`num_gangs=4`, `copyin=[x]`, `reduction={"+": "s"}`,
//! `device_type={"nvidia": {"vector": 128}}`) → the IR's typed clause parts.
//!
//! The checks are the C front end's (`front/c/src/parse/directive.rs`):
//! which clauses each directive allows, which may follow `device_type`, the
//! conflicting pairs (`seq` with `gang`, `auto` with `independent`, …),
//! `num_gangs` arity, `gang(dim:)` and `collapse` constants, reduction
//! operators against the variable's type. Messages use the Python spelling.

use super::vars;
use crate::cx::Cx;
use crate::tree::{Node, Value};
use accjit_ir::{
    build, ComputeTuning, DataClause, DataClauseKind, DefaultKind, DeviceTyped, Diagnostic, ExprId, GangArgs, LoopTuning, RedOp, Reduction, Span, Type, VarRef,
    WaitArgs,
};

/// The directives, in their Python spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    Parallel,
    Serial,
    Kernels,
    Loop,
    Data,
    HostData,
    EnterData,
    ExitData,
    Update,
    Wait,
}

impl Dir {
    /// How users write it (for messages).
    pub fn spelling(self) -> &'static str {
        match self {
            Dir::Parallel => "acc.parallel",
            Dir::Serial => "acc.serial",
            Dir::Kernels => "acc.kernels",
            Dir::Loop => "acc.loop",
            Dir::Data => "acc.data",
            Dir::HostData => "acc.host_data",
            Dir::EnterData => "acc.enter_data",
            Dir::ExitData => "acc.exit_data",
            Dir::Update => "acc.update_self/acc.update_device",
            Dir::Wait => "acc.wait",
        }
    }
}

const COMPUTE_DATA: &[&str] = &["copy", "copyin", "copyout", "create", "no_create", "present", "deviceptr", "attach"];
const PARALLEL: &[&str] =
    &["async", "wait", "num_gangs", "num_workers", "vector_length", "device_type", "if", "self", "reduction", "private", "firstprivate", "default"];
const SERIAL: &[&str] = &["async", "wait", "device_type", "if", "self", "reduction", "private", "firstprivate", "default"];
const KERNELS: &[&str] = &["async", "wait", "num_gangs", "num_workers", "vector_length", "device_type", "if", "self", "default"];
const LOOP: &[&str] = &["collapse", "gang", "worker", "vector", "seq", "independent", "auto", "tile", "device_type", "private", "reduction"];
const DATA: &[&str] = &["if", "async", "wait", "device_type", "default"];
const ENTER: &[&str] = &["if", "async", "wait", "copyin", "create", "attach"];
const EXIT: &[&str] = &["if", "async", "wait", "copyout", "delete", "detach", "finalize"];
const HOST_DATA: &[&str] = &["use_device", "if", "if_present"];
const UPDATE: &[&str] = &["async", "wait", "device_type", "if", "if_present"];
const WAIT: &[&str] = &["async", "if"];

const AFTER_DTYPE_COMPUTE: &[&str] = &["async", "wait", "num_gangs", "num_workers", "vector_length"];
const AFTER_DTYPE_LOOP: &[&str] = &["collapse", "gang", "worker", "vector", "seq", "independent", "auto", "tile"];
const AFTER_DTYPE_DATA: &[&str] = &["async", "wait"];

/// Every clause name (C spelling), for "did you mean".
const ALL: &[&str] = &[
    "async",
    "wait",
    "num_gangs",
    "num_workers",
    "vector_length",
    "device_type",
    "if",
    "self",
    "reduction",
    "private",
    "firstprivate",
    "default",
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "deviceptr",
    "attach",
    "detach",
    "delete",
    "finalize",
    "use_device",
    "if_present",
    "collapse",
    "gang",
    "worker",
    "vector",
    "seq",
    "independent",
    "auto",
    "tile",
];

fn allowed(d: Dir) -> Vec<&'static str> {
    match d {
        Dir::Parallel => [PARALLEL, COMPUTE_DATA].concat(),
        Dir::Serial => [SERIAL, COMPUTE_DATA].concat(),
        Dir::Kernels => [KERNELS, COMPUTE_DATA].concat(),
        Dir::Loop => LOOP.to_vec(),
        Dir::Data => [DATA, COMPUTE_DATA].concat(),
        Dir::HostData => HOST_DATA.to_vec(),
        Dir::EnterData => ENTER.to_vec(),
        Dir::ExitData => EXIT.to_vec(),
        Dir::Update => UPDATE.to_vec(),
        Dir::Wait => WAIT.to_vec(),
    }
}

fn allowed_after_dtype(d: Dir) -> &'static [&'static str] {
    match d {
        Dir::Parallel | Dir::Serial | Dir::Kernels => AFTER_DTYPE_COMPUTE,
        Dir::Loop => AFTER_DTYPE_LOOP,
        Dir::Data | Dir::Update => AFTER_DTYPE_DATA,
        _ => &[],
    }
}

/// The Python keyword of a clause (`if` → `if_`).
pub(crate) fn py_name(c: &str) -> String {
    match c {
        "if" | "async" | "self" => format!("{c}_"),
        c => c.to_string(),
    }
}

/// "`reduction=` is allowed on acc.parallel, acc.serial and acc.loop".
fn directives_allowing(clause: &str) -> Option<String> {
    use Dir::*;
    let dirs = [Parallel, Serial, Kernels, Loop, Data, HostData, EnterData, ExitData, Update, Wait];
    let names: Vec<&str> = dirs.iter().filter(|d| allowed(**d).contains(&clause)).map(|d| d.spelling()).collect();
    let list = match names.as_slice() {
        [] => return None,
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last),
    };
    Some(format!("`{}=` is allowed on {}", py_name(clause), list))
}

/// A modifier spelled into the keyword (`copyin_readonly=`, `copyout_zero=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
struct Modifiers {
    readonly: bool,
    zero: bool,
}

/// The clause a Python keyword names: `if_` → `if`, `copyin_readonly` →
/// (`copyin`, readonly), legacy `present_or_copy`/`pcopy*` spellings too.
fn canonical(kw: &str) -> Option<(&'static str, Modifiers)> {
    let (base, m) = match kw {
        "copyin_readonly" => ("copyin", Modifiers { readonly: true, zero: false }),
        "copyout_zero" => ("copyout", Modifiers { readonly: false, zero: true }),
        "create_zero" => ("create", Modifiers { readonly: false, zero: true }),
        "pcopy" | "present_or_copy" => ("copy", Modifiers::default()),
        "pcopyin" | "present_or_copyin" => ("copyin", Modifiers::default()),
        "pcopyout" | "present_or_copyout" => ("copyout", Modifiers::default()),
        "pcreate" | "present_or_create" => ("create", Modifiers::default()),
        "dtype" => ("device_type", Modifiers::default()),
        k => (k.strip_suffix('_').unwrap_or(k), Modifiers::default()),
    };
    ALL.iter().find(|c| **c == base).map(|c| (*c, m))
}

fn data_kind(name: &str) -> Option<DataClauseKind> {
    Some(match name {
        "copy" => DataClauseKind::Copy,
        "copyin" => DataClauseKind::CopyIn,
        "copyout" => DataClauseKind::CopyOut,
        "create" => DataClauseKind::Create,
        "no_create" => DataClauseKind::NoCreate,
        "present" => DataClauseKind::Present,
        "deviceptr" => DataClauseKind::DevicePtr,
        "attach" => DataClauseKind::Attach,
        "detach" => DataClauseKind::Detach,
        "delete" => DataClauseKind::Delete,
        _ => return None,
    })
}

/// One clause keyword as written.
#[derive(Clone, Copy)]
pub(crate) struct Kw<'n> {
    pub name: &'n str,
    pub value: &'n Node,
    /// Where to report (the keyword, or the decorator for decorator clauses).
    pub at: &'n Node,
}

/// `keyword` nodes (of a call or of a decorator) as clause keywords.
pub(crate) fn keywords<'n>(cx: &Cx, nodes: &[&'n Node]) -> Result<Vec<Kw<'n>>, Diagnostic> {
    let mut out = vec![];
    for k in nodes {
        let Some(value) = k.node("value") else { continue };
        match k.str("arg") {
            Some(name) => out.push(Kw { name, value, at: k }),
            None => return Err(cx.err(k, "`**` arguments cannot give OpenACC clauses; write each clause as a keyword")),
        }
    }
    Ok(out)
}

/// The checked clauses of one directive, in the IR's terms.
#[derive(Default)]
pub(crate) struct Clauses {
    pub compute: DeviceTyped<ComputeTuning>,
    pub loop_: DeviceTyped<LoopTuning>,
    pub if_cond: Option<ExprId>,
    pub self_cond: Option<Option<ExprId>>,
    pub default: Option<DefaultKind>,
    pub data: Vec<DataClause>,
    pub private: Vec<VarRef>,
    pub firstprivate: Vec<VarRef>,
    pub reductions: Vec<Reduction>,
    pub use_device: Vec<VarRef>,
    pub if_present: bool,
    pub finalize: bool,
    /// `collapse`/`tile` of any group: (loops needed, force, clause span, what).
    pub nests: Vec<(u32, bool, Span, String)>,
    /// `private=` names that did not exist at the directive: the body must
    /// assign them (see [`Clauses::check_deferred`]).
    pub deferred_private: Vec<(String, Span)>,
    /// The first clause with a span per name (group 0), for notes.
    pub seen: Vec<(&'static str, Span)>,
}

impl Clauses {
    fn compute_group(&mut self, g: usize) -> &mut ComputeTuning {
        if g == 0 {
            &mut self.compute.default
        } else {
            &mut self.compute.per_type[g - 1].1
        }
    }
    fn loop_group(&mut self, g: usize) -> &mut LoopTuning {
        if g == 0 {
            &mut self.loop_.default
        } else {
            &mut self.loop_.per_type[g - 1].1
        }
    }
    /// After the body: every deferred `private=` name is now a local (first
    /// assigned in the body), else it names nothing.
    pub fn check_deferred(&self, cx: &Cx) -> Result<(), Diagnostic> {
        for (n, sp) in &self.deferred_private {
            if cx.var(n).is_none() {
                return Err(Diagnostic::error(*sp, format!("unknown variable `{n}` in a clause"))
                    .with_hint("a clause names parameters and locals; a name first assigned inside the loop or region is private to it already"));
            }
        }
        Ok(())
    }
    pub fn span_of(&self, name: &str) -> Option<Span> {
        self.seen.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
    }
}

/// Check and convert the clause keywords of directive `d`.
pub(crate) fn parse(cx: &mut Cx, d: Dir, kws: &[Kw]) -> Result<Clauses, Diagnostic> {
    let mut c = Clauses::default();
    let ok = allowed(d);
    // (group names, its keywords): group 0 is the clauses before any device_type.
    let mut groups: Vec<(Vec<String>, Vec<Kw>)> = vec![(vec![], vec![])];
    for kw in kws {
        let Some((name, _)) = canonical(kw.name) else {
            let msg = format!("unknown OpenACC clause `{}=` on {}", kw.name, d.spelling());
            let pys: Vec<String> = ok.iter().map(|c| py_name(c)).collect();
            let e = cx.err(kw.at, msg);
            return Err(match closest(kw.name, pys.iter().map(|s| s.as_str())) {
                Some(s) => e.with_hint(format!("did you mean `{s}=`?")),
                None => e.with_hint(format!("{} takes: {}", d.spelling(), pys.iter().map(|s| format!("{s}=")).collect::<Vec<_>>().join(", "))),
            });
        };
        if !ok.contains(&name) {
            let e = cx.err(kw.at, format!("clause `{}=` is not allowed on {}", kw.name, d.spelling()));
            return Err(match directives_allowing(name) {
                Some(h) => e.with_hint(h),
                None => e,
            });
        }
        if name == "device_type" {
            device_type_groups(cx, d, kw, &mut groups)?;
        } else {
            groups[0].1.push(*kw);
        }
    }
    for (names, _) in groups.iter().skip(1) {
        c.compute.per_type.push((names.clone(), ComputeTuning::default()));
        c.loop_.per_type.push((names.clone(), LoopTuning::default()));
    }
    for (g, (_, kws)) in groups.iter().enumerate() {
        let mut in_group: Vec<(&'static str, Span, bool)> = vec![];
        for kw in kws {
            let (name, m) = canonical(kw.name).ok_or_else(|| cx.err(kw.at, format!("unknown OpenACC clause `{}=`", kw.name)))?;
            if g > 0 && !allowed_after_dtype(d).contains(&name) {
                return Err(cx.err(kw.at, format!("clause `{}=` may not be given per device type on {}", kw.name, d.spelling())).with_hint(format!(
                    "inside device_type= only {} may appear",
                    allowed_after_dtype(d).iter().map(|c| format!("`{}`", py_name(c))).collect::<Vec<_>>().join(", ")
                )));
            }
            if in_group.iter().any(|(n, _, given)| *n == name && *given) && !matches!(name, "copy" | "copyin" | "copyout" | "create") {
                return Err(cx.err(kw.at, format!("duplicate `{}` clause", py_name(name))));
            }
            let sp = cx.span(kw.at);
            let given = one(cx, d, &mut c, g, name, m, kw)?;
            in_group.push((name, sp, given));
            if g == 0 && given && c.span_of(name).is_none() {
                c.seen.push((name, sp));
            }
        }
        check_conflicts(cx, &in_group, kws)?;
    }
    Ok(c)
}

/// `device_type={"nvidia": {"vector": 128}, ("host", "multicore"): {...}, "*": {...}}`.
fn device_type_groups<'n>(cx: &Cx, d: Dir, kw: &Kw<'n>, groups: &mut Vec<(Vec<String>, Vec<Kw<'n>>)>) -> Result<(), Diagnostic> {
    let form = || {
        cx.err(kw.value, "device_type= takes a dict from device type names to clauses")
            .with_hint("write device_type={\"nvidia\": {\"vector\": 128}, \"*\": {\"vector\": 4}} (names as strings, a tuple of names, or \"*\")")
    };
    if !kw.value.is("Dict") {
        return Err(form());
    }
    let keys = list_items(kw.value, "keys");
    let values = list_items(kw.value, "values");
    if keys.len() != values.len() {
        return Err(form());
    }
    for (k, v) in keys.iter().zip(values) {
        let names: Vec<String> = match k.kind.as_str() {
            "Tuple" | "List" => k.nodes("elts").iter().map(|n| name_text(n)).collect::<Option<_>>().ok_or_else(form)?,
            _ => vec![name_text(k).ok_or_else(form)?],
        };
        let names: Vec<String> = names.into_iter().map(|n| n.to_ascii_lowercase()).collect();
        let items: Vec<Kw> = match v.kind.as_str() {
            "Dict" => {
                let ks = list_items(v, "keys");
                let vs = list_items(v, "values");
                let mut out = vec![];
                for (ck, cv) in ks.iter().zip(vs) {
                    let Some(name) = name_ref(ck) else {
                        return Err(cx.err(ck, "a device_type group's clauses are a dict from clause names to values"));
                    };
                    out.push(Kw { name, value: cv, at: ck });
                }
                out
            }
            // dict(vector=128)
            "Call" if v.node("func").and_then(|f| f.str("id")) == Some("dict") => keywords(cx, &v.nodes("keywords"))?,
            _ => return Err(cx.err(v, format!("the clauses for device type {} must be a dict (`{{\"vector\": 128}}`)", names.join(", ")))),
        };
        for it in &items {
            if canonical(it.name).map(|c| c.0) == Some("device_type") {
                return Err(cx.err(it.at, "device_type= groups cannot nest"));
            }
        }
        let _ = d;
        groups.push((names, items));
    }
    Ok(())
}

/// The items of a `Dict`'s keys/values field (None keys — `**x` — kept out).
fn list_items<'n>(n: &'n Node, field: &str) -> Vec<&'n Node> {
    match n.get(field) {
        Value::List(items) => items.iter().filter_map(|v| if let Value::Node(x) = v { Some(&**x) } else { None }).collect(),
        _ => vec![],
    }
}

/// A name written as a string constant or (in decorator clauses, where
/// strings were parsed as expressions) as a bare name; `"*"` too.
pub(crate) fn name_text(n: &Node) -> Option<String> {
    name_ref(n).map(|s| s.to_string())
}

pub(crate) fn name_ref(n: &Node) -> Option<&str> {
    match n.kind.as_str() {
        "Name" => n.str("id"),
        "Constant" => match n.get("value") {
            Value::Str(s) => Some(s.trim()),
            _ => None,
        },
        _ => None,
    }
}

/// A constant `True`/`False`/`None` (None counts as not given).
fn const_bool(n: &Node) -> Option<bool> {
    if !n.is("Constant") {
        return None;
    }
    match n.get("value") {
        Value::Bool(b) => Some(*b),
        Value::None => Some(false),
        _ => None,
    }
}

/// Apply one clause to group `g`; returns false when the keyword gives
/// nothing (`seq=False`, `async_=None`).
fn one(cx: &mut Cx, d: Dir, c: &mut Clauses, g: usize, name: &'static str, m: Modifiers, kw: &Kw) -> Result<bool, Diagnostic> {
    let v = kw.value;
    let sp = cx.span(kw.at);
    let flag = |cx: &Cx| -> Result<bool, Diagnostic> { const_bool(v).ok_or_else(|| cx.err(v, format!("`{}=` takes True or False", py_name(name)))) };
    match name {
        "seq" | "independent" | "auto" | "finalize" | "if_present" => {
            let on = flag(cx)?;
            if on {
                match name {
                    "seq" => c.loop_group(g).seq = true,
                    "independent" => c.loop_group(g).independent = true,
                    "auto" => c.loop_group(g).auto = true,
                    "finalize" => c.finalize = true,
                    _ => c.if_present = true,
                }
            }
            Ok(on)
        }
        "if" => {
            c.if_cond = Some(cond_arg(cx, v)?);
            Ok(true)
        }
        "self" => {
            c.self_cond = match const_bool(v) {
                Some(false) => return Ok(false),
                Some(true) => Some(None),
                None => Some(Some(cond_arg(cx, v)?)),
            };
            Ok(true)
        }
        "async" => {
            let a = match const_bool(v) {
                Some(false) => return Ok(false),
                Some(true) => None,
                None => Some(int_arg(cx, v, "async_=")?),
            };
            c.compute_group(g).async_ = Some(a);
            Ok(true)
        }
        "wait" => {
            let w = match const_bool(v) {
                Some(false) => return Ok(false),
                Some(true) => WaitArgs::default(),
                None => wait_args(cx, v)?,
            };
            c.compute_group(g).wait = Some(w);
            Ok(true)
        }
        "num_gangs" => {
            let items: Vec<&Node> = if v.is("Tuple") || v.is("List") { v.nodes("elts") } else { vec![v] };
            if items.is_empty() || items.len() > 3 {
                return Err(cx.err(v, "num_gangs= takes 1 to 3 values"));
            }
            if d != Dir::Parallel && items.len() > 1 {
                return Err(cx.err(v, "num_gangs= with more than one value is only allowed on acc.parallel"));
            }
            let mut es = vec![];
            for it in items {
                es.push(int_arg(cx, it, "num_gangs=")?);
            }
            c.compute_group(g).num_gangs = es;
            Ok(true)
        }
        "num_workers" => {
            c.compute_group(g).num_workers = Some(int_arg(cx, v, "num_workers=")?);
            Ok(true)
        }
        "vector_length" => {
            c.compute_group(g).vector_length = Some(int_arg(cx, v, "vector_length=")?);
            Ok(true)
        }
        "default" => {
            let k = match name_ref(v) {
                Some("none") => DefaultKind::None,
                Some("present") => DefaultKind::Present,
                _ => return Err(cx.err(v, "default= takes \"none\" or \"present\"")),
            };
            c.default = Some(k);
            Ok(true)
        }
        "private" if d != Dir::Data => {
            // A name not assigned yet is first assigned in the body, which
            // makes it private there already: checked after the body.
            for it in vars::items(v) {
                match name_ref(it) {
                    Some(n) if (it.is("Name") || it.is("Constant")) && cx.var(n).is_none() && !cx.env.contains_key(n) => {
                        c.deferred_private.push((n.to_string(), cx.span(it)))
                    }
                    _ => c.private.push(vars::var_ref(cx, it)?),
                }
            }
            Ok(true)
        }
        "private" | "firstprivate" | "use_device" => {
            let vars = vars::var_list(cx, v)?;
            match name {
                "private" => c.private.extend(vars),
                "firstprivate" => c.firstprivate.extend(vars),
                _ => c.use_device.extend(vars),
            }
            Ok(true)
        }
        "reduction" => {
            for (op, vars, at) in reduction_items(cx, v)? {
                for r in &vars {
                    if let Err(e) = accjit_ir::reducible(op, &r.elem_ty, &cx.module().structs) {
                        return Err(Diagnostic::error(r.span, format!("reduction operator '{}' cannot be applied to `{}`: {}", op.symbol(), r.text, e)));
                    }
                }
                c.reductions.push(Reduction { op, vars, span: at });
            }
            Ok(true)
        }
        "gang" => {
            let mut ga = GangArgs { span: sp, ..Default::default() };
            match const_bool(v) {
                Some(false) => return Ok(false),
                Some(true) => {}
                None if v.is("Dict") => {
                    for (k, x) in list_items(v, "keys").into_iter().zip(list_items(v, "values")) {
                        match name_ref(k) {
                            Some("num") => ga.num = Some(int_arg(cx, x, "gang num")?),
                            Some("static") => {
                                ga.static_ = Some(if name_ref(x) == Some("*") { None } else { Some(int_arg(cx, x, "gang static")?) });
                            }
                            Some("dim") => {
                                let (n, _) = const_arg(cx, x, "gang dim")?;
                                if !(1..=3).contains(&n) {
                                    return Err(cx.err(x, "gang dim must be 1, 2 or 3"));
                                }
                                if cx.region_kind() == Some(accjit_ir::ComputeKind::Kernels) {
                                    return Err(cx.err(x, "gang dim is not allowed inside a kernels construct"));
                                }
                                ga.dim = Some(n as u32);
                            }
                            _ => return Err(cx.err(k, "gang= takes True, a number of gangs, or a dict with \"num\", \"static\" and \"dim\"")),
                        }
                    }
                }
                None => ga.num = Some(int_arg(cx, v, "gang=")?),
            }
            c.loop_group(g).gang = Some(ga);
            Ok(true)
        }
        "worker" | "vector" => {
            let a = match const_bool(v) {
                Some(false) => return Ok(false),
                Some(true) => None,
                None => Some(int_arg(cx, v, if name == "worker" { "worker=" } else { "vector=" })?),
            };
            if name == "worker" {
                c.loop_group(g).worker = Some(a);
            } else {
                c.loop_group(g).vector = Some(a);
            }
            Ok(true)
        }
        "collapse" => {
            // collapse=2, or collapse={"force": 2}
            let (node, force) = if v.is("Dict") {
                let ks = list_items(v, "keys");
                let vs = list_items(v, "values");
                match (ks.as_slice(), vs.as_slice()) {
                    ([k], [x]) if name_ref(k) == Some("force") => (*x, true),
                    _ => return Err(cx.err(v, "collapse= takes a positive integer constant, or {\"force\": n}")),
                }
            } else {
                (v, false)
            };
            let (n, _) = const_arg(cx, node, "collapse=")?;
            if n <= 0 {
                return Err(cx.err(node, format!("collapse= must be a positive integer constant (got {n})")));
            }
            c.loop_group(g).collapse = Some((n as u32, force));
            c.nests.push((n as u32, force, sp, format!("collapse={n}")));
            Ok(true)
        }
        "tile" => {
            let items: Vec<&Node> = if v.is("Tuple") || v.is("List") { v.nodes("elts") } else { vec![v] };
            if items.is_empty() {
                return Err(cx.err(v, "tile= takes one size per loop: tile=(8, 8)"));
            }
            let mut t = vec![];
            for it in &items {
                if name_ref(it) == Some("*") {
                    t.push(None);
                } else {
                    t.push(Some(int_arg(cx, it, "tile=")?));
                }
            }
            c.nests.push((t.len() as u32, false, sp, "tile=".to_string()));
            c.loop_group(g).tile = t;
            Ok(true)
        }
        _ => {
            let Some(kind) = data_kind(name) else { return Err(cx.err(kw.at, format!("clause `{}=` is not supported", kw.name))) };
            let vars = vars::var_list(cx, v)?;
            if vars.is_empty() {
                return Ok(false);
            }
            c.data.push(DataClause { kind, readonly: m.readonly, zero: m.zero, vars, span: sp });
            Ok(true)
        }
    }
}

/// seq with gang/worker/vector/independent/auto, auto with independent:
/// reported at the later keyword, naming both.
fn check_conflicts(cx: &Cx, in_group: &[(&'static str, Span, bool)], kws: &[Kw]) -> Result<(), Diagnostic> {
    let pairs: &[(&str, &str)] = &[("seq", "gang"), ("seq", "worker"), ("seq", "vector"), ("seq", "independent"), ("seq", "auto"), ("auto", "independent")];
    let has = |n: &str| in_group.iter().position(|(x, _, given)| *x == n && *given);
    for (a, b) in pairs {
        if let (Some(i), Some(j)) = (has(a), has(b)) {
            let (first, later) = if i < j { (i, j) } else { (j, i) };
            return Err(Diagnostic::error(
                in_group[later].1,
                format!("`{}=` may not be combined with `{}=` on the same loop", py_name(in_group[later].0), py_name(in_group[first].0)),
            )
            .with_hint(if *a == "seq" {
                "a seq loop runs sequentially in each executor: drop one of the two"
            } else {
                "auto leaves the choice to the compiler; independent asserts it: drop one"
            }));
        }
    }
    let _ = (cx, kws);
    Ok(())
}

/// An integer clause argument, converted to i64 (as C converts to `long`).
pub(crate) fn int_arg(cx: &mut Cx, n: &Node, what: &str) -> Result<ExprId, Diagnostic> {
    let e = cx.expr(n)?;
    let t = cx.type_of(e);
    if !matches!(t, Type::Scalar(s) if s.is_int()) {
        return Err(cx.err(n, format!("{what} takes an integer, not {}", cx.type_name(&t))));
    }
    let sp = cx.span(n);
    Ok(build::cast(&mut cx.f, e, Type::I64, sp))
}

/// An integer known at compile time (a literal or a frozen constant).
pub(crate) fn const_arg(cx: &mut Cx, n: &Node, what: &str) -> Result<(i64, Span), Diagnostic> {
    let e = cx.expr(n)?;
    let t = cx.type_of(e);
    match build::const_int(&cx.f, e) {
        Some(v) if matches!(t, Type::Scalar(s) if s.is_int()) => Ok((v, cx.span(n))),
        _ => Err(cx.err(n, format!("{what} must be an integer constant"))),
    }
}

/// A condition (`if_=`, `self_=`): Python truth of any scalar, as an `int`.
pub(crate) fn cond_arg(cx: &mut Cx, n: &Node) -> Result<ExprId, Diagnostic> {
    cx.cond(n)
}

/// `wait=1`, `wait=[1, 2]`, `wait={"devnum": d, "queues": [1, 2]}`.
pub(crate) fn wait_args(cx: &mut Cx, v: &Node) -> Result<WaitArgs, Diagnostic> {
    let mut w = WaitArgs::default();
    if v.is("Dict") {
        for (k, x) in list_items(v, "keys").into_iter().zip(list_items(v, "values")) {
            match name_ref(k) {
                Some("devnum") => w.devnum = Some(int_arg(cx, x, "wait devnum")?),
                Some("queues") => w.queues.extend(queue_list(cx, x)?),
                _ => return Err(cx.err(k, "wait= takes a queue, a list of queues, or a dict with \"devnum\" and \"queues\"")),
            }
        }
        return Ok(w);
    }
    w.queues = queue_list(cx, v)?;
    Ok(w)
}

fn queue_list(cx: &mut Cx, v: &Node) -> Result<Vec<ExprId>, Diagnostic> {
    let items: Vec<&Node> = if v.is("Tuple") || v.is("List") { v.nodes("elts") } else { vec![v] };
    let mut out = vec![];
    for it in items {
        out.push(int_arg(cx, it, "a wait queue")?);
    }
    Ok(out)
}

/// The operator of a reduction as written: `"+"`, `"max"`, `"&&"`, ….
pub(crate) fn red_op(s: &str) -> Option<RedOp> {
    Some(match s {
        "+" => RedOp::Add,
        "*" => RedOp::Mul,
        "max" => RedOp::Max,
        "min" => RedOp::Min,
        "&" => RedOp::BitAnd,
        "|" => RedOp::BitOr,
        "^" => RedOp::BitXor,
        "&&" | "and" => RedOp::LogAnd,
        "||" | "or" => RedOp::LogOr,
        _ => return None,
    })
}

/// `reduction={"+": "s", "max": ["m", "n"]}` or `reduction="+:s,t"`.
fn reduction_items(cx: &mut Cx, v: &Node) -> Result<Vec<(RedOp, Vec<VarRef>, Span)>, Diagnostic> {
    let bad_op = |cx: &Cx, n: &Node, s: &str| {
        cx.err(n, format!("invalid reduction operator `{s}`")).with_hint("expected one of \"+\" \"*\" \"max\" \"min\" \"&\" \"|\" \"^\" \"&&\" \"||\"")
    };
    let mut out = vec![];
    if v.is("Dict") {
        for (k, x) in list_items(v, "keys").into_iter().zip(list_items(v, "values")) {
            let Some(s) = name_ref(k) else { return Err(cx.err(k, "a reduction operator is a string: \"+\", \"max\", …")) };
            let op = red_op(s).ok_or_else(|| bad_op(cx, k, s))?;
            let vars = vars::var_list(cx, x)?;
            let sp = cx.span(k);
            out.push((op, vars, sp));
        }
        return Ok(out);
    }
    if let (true, Value::Str(s)) = (v.is("Constant"), v.get("value")) {
        let Some((op, names)) = s.split_once(':') else {
            return Err(cx.err(v, "reduction= takes a dict {\"+\": \"s\"} or a string \"+:s\""));
        };
        let op = red_op(op.trim()).ok_or_else(|| bad_op(cx, v, op.trim()))?;
        let mut vars = vec![];
        for name in names.split(',') {
            vars.push(vars::var_named(cx, v, name.trim())?);
        }
        let sp = cx.span(v);
        out.push((op, vars, sp));
        return Ok(out);
    }
    Err(cx.err(v, "reduction= takes a dict from operators to variables: reduction={\"+\": \"s\"} or {\"max\": [\"m\", \"n\"]}"))
}

/// The closest candidate within a third of the name's length (typos).
pub(crate) fn closest<'b>(name: &str, cands: impl IntoIterator<Item = &'b str>) -> Option<&'b str> {
    if name.len() < 3 {
        return None;
    }
    let mut best: Option<(&str, usize)> = None;
    for c in cands {
        let d = edit_distance(name, c);
        let limit = ((name.len().max(c.len()) + 1) / 3).max(1);
        if d <= limit && best.map(|(_, bd)| d < bd).unwrap_or(true) {
            best = Some((c, d));
        }
    }
    best.map(|(c, _)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let c = if a[i - 1] == b[j - 1] { 0 } else { 1 };
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + c);
        }
        prev = cur;
    }
    prev[b.len()]
}
