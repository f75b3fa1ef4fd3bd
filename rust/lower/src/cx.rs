//! The lowering context: the module being lowered (its extern, global and
//! kernel tables), the options, the source map for location strings, and the
//! diagnostics collected so far. Also owns the runtime-ABI declarations
//! (`__accjit_*` externs, declared once each) and the constant C strings
//! (`name`/`loc` arguments) that lowering emits.

use crate::LowerOptions;
use accjit_ir::*;
use std::collections::HashMap;

pub struct Cx<'a> {
    pub module: &'a mut Module,
    pub opts: &'a LowerOptions,
    pub sources: Option<&'a SourceMap>,
    pub diags: Vec<Diagnostic>,
    strings: HashMap<String, GlobalId>,
    externs: HashMap<String, ExternId>,
    /// Counter for kernel names per host function.
    pub kernel_counter: HashMap<String, u32>,
}

/// `void *`
pub fn void_ptr() -> Type {
    Type::ptr(Type::Void)
}

/// `const char *`
pub fn char_ptr() -> Type {
    Type::ptr(Type::Scalar(Scalar::I8))
}

/// The IR type of a runtime ABI type.
fn abi_type(t: accjit_abi::AbiType) -> Type {
    use accjit_abi::AbiType;
    match t {
        AbiType::Void => Type::Void,
        AbiType::I64 => Type::I64,
        AbiType::Ptr => void_ptr(),
        AbiType::PtrPtr => Type::ptr(void_ptr()),
        AbiType::I64Ptr => Type::ptr(Type::I64),
        AbiType::CStr => char_ptr(),
        AbiType::F64 => Type::F64,
    }
}

/// Signature of a runtime entry point lower calls, from the runtime ABI
/// table (`accjit_abi::ENTRY_POINTS`, docs/runtime-abi.md).
fn runtime_sig(name: &str) -> Option<FuncSig> {
    let e = accjit_abi::entry_point(name)?;
    Some(FuncSig { params: e.params.iter().map(|&t| abi_type(t)).collect(), ret: abi_type(e.ret), variadic: false })
}

/// The `acc_device_t` code of a device-type name (`host`, `acc_device_host`,
/// `*`), from the runtime ABI table.
pub fn device_type_code(name: &str) -> Option<i64> {
    accjit_abi::device_type_code(name).map(i64::from)
}

/// The ABI kind number of a data clause (`kind` of `__accjit_data_enter`,
/// `__accjit_data_exit`, `__accjit_deep`).
pub fn clause_code(kind: DataClauseKind) -> i64 {
    use accjit_abi::clause;
    match kind {
        DataClauseKind::Copy => clause::COPY,
        DataClauseKind::CopyIn => clause::COPYIN,
        DataClauseKind::CopyOut => clause::COPYOUT,
        DataClauseKind::Create => clause::CREATE,
        DataClauseKind::NoCreate => clause::NO_CREATE,
        DataClauseKind::Present => clause::PRESENT,
        DataClauseKind::DevicePtr => clause::DEVICEPTR,
        DataClauseKind::Attach => clause::ATTACH,
        DataClauseKind::Detach => clause::DETACH,
        DataClauseKind::Delete => clause::DELETE,
        DataClauseKind::Link => clause::LINK,
        DataClauseKind::DeviceResident => clause::DEVICE_RESIDENT,
        DataClauseKind::UseDevice => clause::USE_DEVICE,
        DataClauseKind::UpdateSelf => clause::UPDATE_SELF,
        DataClauseKind::UpdateDevice => clause::UPDATE_DEVICE,
    }
}

impl<'a> Cx<'a> {
    pub fn new(module: &'a mut Module, opts: &'a LowerOptions, sources: Option<&'a SourceMap>) -> Cx<'a> {
        let mut externs = HashMap::new();
        for (i, e) in module.externs.iter().enumerate() {
            externs.entry(e.name.clone()).or_insert(ExternId(i as u32));
        }
        let mut strings = HashMap::new();
        for (i, g) in module.globals.iter().enumerate() {
            if g.name.starts_with(".accjit.str.") {
                if let Some(init) = &g.init {
                    let text = String::from_utf8_lossy(&init.bytes[..init.bytes.len().saturating_sub(1)]).to_string();
                    strings.insert(text, GlobalId(i as u32));
                }
            }
        }
        Cx { module, opts, sources, diags: vec![], strings, externs, kernel_counter: HashMap::new() }
    }

    pub fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    pub fn size_of(&self, ty: &Type) -> u64 {
        size_of(ty, &self.module.structs)
    }

    /// The extern for runtime entry point `name`, declared on first use.
    pub fn rt(&mut self, name: &str) -> ExternId {
        if let Some(&id) = self.externs.get(name) {
            return id;
        }
        let sig = runtime_sig(name).unwrap_or(FuncSig { params: vec![], ret: Type::Void, variadic: false });
        self.module.externs.push(ExternFunc { name: name.to_string(), sig, returns_twice: false, span: Span::DUMMY });
        let id = ExternId(self.module.externs.len() as u32 - 1);
        self.externs.insert(name.to_string(), id);
        id
    }

    /// A constant NUL-terminated string global holding `text` (deduplicated).
    pub fn cstr(&mut self, text: &str) -> GlobalId {
        if let Some(&g) = self.strings.get(text) {
            return g;
        }
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        let n = self.strings.len();
        let ty = Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(bytes.len() as u64));
        self.module.globals.push(Global {
            name: format!(".accjit.str.{}", n),
            ty,
            linkage: Linkage::Internal,
            init: Some(GlobalInit { bytes, relocs: vec![] }),
            is_const: true,
            declare: None,
            span: Span::DUMMY,
        });
        let id = GlobalId(self.module.globals.len() as u32 - 1);
        self.strings.insert(text.to_string(), id);
        id
    }

    /// `"file.c:LINE"` for `span` (or `"<unknown>"` without a source map).
    pub fn loc_text(&self, span: Span) -> String {
        match self.sources.and_then(|sm| sm.file_line(span)) {
            Some((file, line)) => format!("{}:{}", file, line),
            None => "<unknown>".to_string(),
        }
    }

    /// A fresh kernel name `<func>_<construct>_<n>`.
    pub fn kernel_name(&mut self, func: &str, kind: ComputeKind) -> String {
        let c = self.kernel_counter.entry(func.to_string()).or_insert(0);
        let name = format!("{}_{}_{}", func, kind.name(), c);
        *c += 1;
        name
    }

    pub fn is_const_global(&self, g: GlobalId) -> bool {
        self.module.globals.get(g.index()).map(|g| g.is_const && g.init.is_some()).unwrap_or(false)
    }
}
