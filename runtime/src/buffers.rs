//! The user's buffers: one per storage or uniform binding the entry point
//! uses, sized and filled from the run spec.
//!
//! `--fill NAME=index` (the default) gives each scalar the index of the array
//! element it belongs to, counted across nested arrays (`a[i][j]` of
//! `array<array<T, 4>, N>` holds `4i + j`; every component of `v[i]` of an
//! `array<vec4<f32>>` holds `i`); scalars outside any array hold 0.
//! `random[:SEED]` gives floats in [0, 1) and integers over their whole
//! range, reproducibly; `permutation[:SEED]` gives each scalar the image of
//! its `index` value under a seeded shuffle of the element indices (each
//! index once: the input of a scatter kernel); `const:V` gives every scalar the value V; `file:PATH`
//! copies a file's bytes (zero-padded if shorter).
//!
//! Flags name a buffer by its name, by `GROUP:BINDING` (`0:1`), or by a
//! member of its top-level struct when no other buffer has a member of that
//! name: SPIR-V's anonymous blocks (`buffer Data { uint data[]; };`) are used
//! by their members' names. `--buffer MEMBER=N` sizes the trailing
//! runtime-sized member, `--fill MEMBER=KIND` fills that member only, and
//! `--set MEMBER[3]=…` is `--set BUFFER.MEMBER[3]=…`.

use std::path::Path;

use naga::proc::Layouter;
use naga::{AddressSpace, ArraySize, Handle, Module, Scalar, ScalarKind, Type, TypeInner};
use wgrace_instrument::vars;

use crate::Error;
use crate::spec::{Fill, RunSpec};
use crate::textures::TextureBinding;

/// How a binding is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    /// `var<storage, read_write>`.
    StorageReadWrite,
    /// `var<storage, read>`.
    StorageRead,
    /// `var<uniform>`.
    Uniform,
    /// `var<immediate>`: no binding; its bytes are given to the pipeline
    /// with each dispatch (`set_immediates`).
    Immediate,
    /// A texture; the buffer's contents are the bound view's texels
    /// ([`crate::textures`]).
    Texture(TextureBinding),
    /// A sampler (no contents).
    Sampler { comparison: bool },
}

/// The `(group, binding)` of an immediate ([`BindingKind::Immediate`]),
/// which has none: no pipeline uses it as a binding.
pub const IMMEDIATE_SLOT: (u32, u32) = (u32::MAX, u32::MAX);

/// One of the user's buffers.
#[derive(Clone, Debug)]
pub struct UserBuffer {
    /// The global.
    pub handle: Handle<naga::GlobalVariable>,
    /// Its name (as in reports and `--dump` file names).
    pub name: String,
    /// `@group`.
    pub group: u32,
    /// `@binding`.
    pub binding: u32,
    /// How it is bound.
    pub kind: BindingKind,
    /// Element count of its trailing runtime-sized array, if any; of a
    /// tracked texture, its texels (its words).
    pub runtime_len: Option<u64>,
    /// Initial contents; their length is the buffer's size.
    pub contents: Vec<u8>,
}

impl UserBuffer {
    /// Size in bytes.
    pub fn size(&self) -> u64 {
        self.contents.len() as u64
    }

    /// The texture it is, if it is one.
    pub fn texture(&self) -> Option<&TextureBinding> {
        match &self.kind {
            BindingKind::Texture(t) => Some(t),
            _ => None,
        }
    }
}

/// Element count given to runtime-sized arrays without `--buffer`.
pub fn default_runtime_len(invocations: u64) -> u64 {
    invocations.max(4096)
}

/// The buffers of a run, and warnings about the run spec.
#[derive(Clone, Debug)]
pub struct PlannedBuffers {
    /// The buffers of the bindings the entry point uses.
    pub buffers: Vec<UserBuffer>,
    /// Flags that name a binding the entry point does not use (a shader's
    /// `// wgrace:` line often serves several entry points).
    pub warnings: Vec<String>,
}

/// Plans the buffers of the bindings `used` says the entry point uses.
/// `whole` is the shader's module before it was prepared for the entry point
/// (which drops the bindings the entry point does not use): flags name its
/// bindings, and one that this entry point does not use is a warning.
///
/// # Errors
/// [`Error::Spec`] for flags naming no binding of the shader, a length for a
/// fixed-size binding, bad values; [`Error::Unsupported`] for textures and
/// samplers.
pub fn plan_buffers(
    module: &Module,
    spec: &RunSpec,
    used: &dyn Fn(Handle<naga::GlobalVariable>) -> bool,
    whole: &Module,
    invocations: u64,
) -> Result<PlannedBuffers, Error> {
    let mut layouter = Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| Error::Internal(format!("layout: {e}")))?;
    let names = Names::of(whole);
    let mut sizes = Vec::new();
    for (name, len) in &spec.buffers {
        let target = names.resolve("--buffer", name)?;
        if let Some(member) = target.member {
            names.check_runtime_member(module, &target.buffer, member, name)?;
        }
        sizes.push((target.buffer, *len));
    }
    let mut fills = Vec::new();
    for (name, fill) in &spec.fills {
        let target = names.resolve("--fill", name)?;
        fills.push((target.buffer, target.member, fill.clone()));
    }
    let mut sets = Vec::new();
    for (path, value) in &spec.sets {
        let end = path.find(['.', '[']).unwrap_or(path.len());
        let target = names.resolve("--set", &path[..end])?;
        let member = target.member.map(|m| format!(".{}", names.member_name(&target.buffer, m)));
        sets.push((format!("{}{}{}", target.buffer, member.unwrap_or_default(), &path[end..]), value.clone()));
    }
    let mut out = Vec::new();
    for (handle, g) in module.global_variables.iter() {
        let slot = match (&g.binding, g.space) {
            (Some(b), _) => (b.group, b.binding),
            (None, AddressSpace::Immediate) => IMMEDIATE_SLOT,
            (None, _) => continue,
        };
        if !used(handle) {
            continue;
        }
        let name = vars::global_name(module, handle);
        match module.types[g.ty].inner {
            TypeInner::Image { .. } => {
                let arg = spec.textures.iter().rev().find(|(n, _)| *n == name).map(|(_, a)| a);
                let fill = fills.iter().rev().find(|(n, m, _)| *n == name && m.is_none()).map(|(_, _, f)| f);
                let planned = crate::textures::plan_texture(module, handle, &name, arg, fill.unwrap_or(&Fill::Index))?;
                let t = planned.binding;
                out.push(UserBuffer {
                    handle,
                    name,
                    group: slot.0,
                    binding: slot.1,
                    kind: BindingKind::Texture(t),
                    runtime_len: t.written().then(|| t.extent().texels()),
                    contents: planned.contents,
                });
                continue;
            }
            TypeInner::Sampler { comparison } => {
                out.push(UserBuffer {
                    handle,
                    name,
                    group: slot.0,
                    binding: slot.1,
                    kind: BindingKind::Sampler { comparison },
                    runtime_len: None,
                    contents: Vec::new(),
                });
                continue;
            }
            _ => {}
        }
        let kind = match g.space {
            AddressSpace::Immediate => BindingKind::Immediate,
            AddressSpace::Storage { access } if access.contains(naga::StorageAccess::STORE) => {
                BindingKind::StorageReadWrite
            }
            AddressSpace::Storage { .. } => BindingKind::StorageRead,
            AddressSpace::Uniform => BindingKind::Uniform,
            _ => {
                return Err(Error::Unsupported(format!(
                    "binding `{name}` (@group({}) @binding({})): wgrace binds buffers, textures and samplers, not \
                     this kind of binding",
                    slot.0, slot.1
                )));
            }
        };
        let (fixed_bytes, stride_bytes) = vars::byte_layout(module, &layouter, g.ty);
        let requested = sizes.iter().rev().find(|(n, _)| *n == name).map(|&(_, l)| l);
        let runtime_len = match (stride_bytes, requested) {
            (Some(_), Some(len)) => Some(len),
            (Some(_), None) => Some(default_runtime_len(invocations)),
            (None, Some(_)) => {
                return Err(Error::Spec(format!(
                    "--buffer {name}=…: `{name}` has a fixed size; --buffer sets the length of runtime-sized arrays"
                )));
            }
            (None, None) => None,
        };
        let mut size = u64::from(fixed_bytes) + stride_bytes.map_or(0, |s| u64::from(s) * runtime_len.unwrap_or(0));
        // WebGPU binds buffers in multiples of 4 bytes (16 for uniforms): an
        // odd number of `f16` elements gets one more, zero-filled.
        size = size.next_multiple_of(if kind == BindingKind::Uniform { 16 } else { 4 });
        let size = size.max(4);
        let size_usize = usize::try_from(size)
            .map_err(|_| Error::Spec(format!("buffer `{name}` would be {size} bytes, too large for this machine")))?;
        let mut contents = Vec::new();
        contents
            .try_reserve_exact(size_usize)
            .map_err(|_| Error::Spec(format!("cannot allocate {size} bytes for buffer `{name}`")))?;
        contents.resize(size_usize, 0);
        let whole = fills.iter().rev().find(|(n, m, _)| *n == name && m.is_none()).map(|(_, _, f)| f.clone());
        fill_value(module, g.ty, 0, runtime_len, &mut contents, &whole.unwrap_or(Fill::Index), &name)?;
        for (_, member, fill) in fills.iter().filter(|(n, m, _)| *n == name && m.is_some()) {
            let TypeInner::Struct { members, .. } = &module.types[g.ty].inner else { continue };
            let m = &members[member.unwrap_or_default()];
            let label = format!("{name}.{}", m.name.as_deref().unwrap_or_default());
            fill_value(module, m.ty, u64::from(m.offset), runtime_len, &mut contents, fill, &label)?;
        }
        out.push(UserBuffer { handle, name, group: slot.0, binding: slot.1, kind, runtime_len, contents });
    }
    // A flag naming a binding of the shader that this entry point does not
    // use is a warning; one naming no binding at all, an error.
    let mut warnings = Vec::new();
    let buffer_flags = sizes.iter().map(|(n, _)| ("--buffer", n.as_str()));
    let fill_flags = fills.iter().map(|(n, _, _)| ("--fill", n.as_str()));
    let set_flags = sets.iter().map(|(path, _)| ("--set", &path[..path.find(['.', '[']).unwrap_or(path.len())]));
    for (flag, name) in buffer_flags.chain(fill_flags).chain(set_flags) {
        if out.iter().any(|b| b.name == name) {
            continue;
        }
        if !names.bindings.iter().any(|(b, _, _)| b == name) {
            return Err(Error::Spec(format!(
                "{flag} {name}…: the shader has no buffer named `{name}`; buffers: {}",
                names.list()
            )));
        }
        let warning = format!("{flag} {name}…: the entry point does not use `{name}`; the flag is ignored");
        if !warnings.contains(&warning) {
            warnings.push(warning);
        }
    }
    for (path, value) in &sets {
        let name = &path[..path.find(['.', '[']).unwrap_or(path.len())];
        if out.iter().any(|b| b.name == name) {
            set_value(module, &mut out, path, value)?;
        }
    }
    Ok(PlannedBuffers { buffers: out, warnings })
}

/// Fills the value of type `ty` at `offset` of `contents` with `fill`
/// (`name` is the buffer or member, for messages).
fn fill_value(
    module: &Module,
    ty: Handle<Type>,
    offset: u64,
    runtime_len: Option<u64>,
    contents: &mut [u8],
    fill: &Fill,
    name: &str,
) -> Result<(), Error> {
    match fill {
        Fill::Zero => Ok(()),
        Fill::File(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Error::Spec(format!("--fill {name}=file:{}: {e}", path.display())))?;
            let room = &mut contents[offset as usize..];
            if bytes.len() > room.len() {
                return Err(Error::Spec(format!(
                    "--fill {name}=file:{}: the file has {} bytes, the buffer {} from there",
                    path.display(),
                    bytes.len(),
                    room.len()
                )));
            }
            room[..bytes.len()].copy_from_slice(&bytes);
            Ok(())
        }
        fill => {
            let mut writer = Writer { module, len: runtime_len.unwrap_or(0), elements: 1 };
            writer.elements = writer.elements(ty);
            writer.fill(contents, ty, offset, None, fill, name)
        }
    }
}

/// The names flags may give a buffer: its own, `GROUP:BINDING`, or a member
/// of its top-level struct that no other buffer has.
struct Names {
    /// Each binding: its name, `(group, binding)` and top-level members.
    bindings: Vec<(String, (u32, u32), Vec<String>)>,
}

/// What a flag's name refers to.
struct Target {
    /// The buffer's name.
    buffer: String,
    /// The member of its struct, by index.
    member: Option<usize>,
}

impl Names {
    fn of(module: &Module) -> Names {
        let mut bindings: Vec<_> = module
            .global_variables
            .iter()
            .filter_map(|(h, g)| {
                let slot = match (&g.binding, g.space) {
                    (Some(b), _) => (b.group, b.binding),
                    (None, AddressSpace::Immediate) => IMMEDIATE_SLOT,
                    (None, _) => return None,
                };
                let members = match &module.types[g.ty].inner {
                    TypeInner::Struct { members, .. } => {
                        members.iter().map(|m| m.name.clone().unwrap_or_default()).collect()
                    }
                    _ => Vec::new(),
                };
                Some((vars::global_name(module, h), slot, members))
            })
            .collect();
        bindings.sort_by_key(|(_, slot, _)| *slot);
        Names { bindings }
    }

    /// The buffer (and member) `name` refers to.
    ///
    /// # Errors
    /// [`Error::Spec`] when it refers to no buffer, or to members of several.
    fn resolve(&self, flag: &str, name: &str) -> Result<Target, Error> {
        if let Some((buffer, _, _)) = self.bindings.iter().find(|(n, _, _)| n == name) {
            return Ok(Target { buffer: buffer.clone(), member: None });
        }
        if let Some((group, binding)) = name.split_once(':') {
            let slot = group.parse::<u32>().ok().zip(binding.parse::<u32>().ok());
            return match self.bindings.iter().find(|(_, b, _)| Some(*b) == slot) {
                Some((buffer, _, _)) => Ok(Target { buffer: buffer.clone(), member: None }),
                None => Err(Error::Spec(format!(
                    "{flag} {name}…: the shader has no binding {name} (GROUP:BINDING); bindings: {}",
                    self.list()
                ))),
            };
        }
        let holders: Vec<(&String, usize)> = self
            .bindings
            .iter()
            .filter_map(|(n, _, members)| Some((n, members.iter().position(|m| m == name)?)))
            .collect();
        match holders.as_slice() {
            [(buffer, member)] => Ok(Target { buffer: (*buffer).clone(), member: Some(*member) }),
            [] => Err(Error::Spec(format!(
                "{flag} {name}…: the shader has no buffer named `{name}`; buffers: {}",
                self.list()
            ))),
            several => Err(Error::Spec(format!(
                "{flag} {name}…: `{name}` is a member of several buffers ({}); name the buffer: {}",
                several.iter().map(|(b, _)| b.as_str()).collect::<Vec<_>>().join(", "),
                several.iter().map(|(b, _)| format!("{b}.{name}")).collect::<Vec<_>>().join(", ")
            ))),
        }
    }

    fn member_name(&self, buffer: &str, member: usize) -> String {
        self.bindings.iter().find(|(n, _, _)| n == buffer).map(|(_, _, m)| m[member].clone()).unwrap_or_default()
    }

    /// Checks that `--buffer MEMBER=…` names the runtime-sized array at the
    /// end of `buffer`.
    fn check_runtime_member(&self, module: &Module, buffer: &str, member: usize, name: &str) -> Result<(), Error> {
        let Some((_, g)) = module.global_variables.iter().find(|(h, _)| vars::global_name(module, *h) == buffer) else {
            return Ok(());
        };
        let runtime = match &module.types[g.ty].inner {
            TypeInner::Struct { members, .. } => members
                .get(member)
                .is_some_and(|m| matches!(module.types[m.ty].inner, TypeInner::Array { size: ArraySize::Dynamic, .. })),
            _ => false,
        };
        if runtime {
            Ok(())
        } else {
            Err(Error::Spec(format!(
                "--buffer {name}=…: `{name}` is a fixed-size member of `{buffer}`; --buffer sets the length of \
                 runtime-sized arrays"
            )))
        }
    }

    /// The bindings, for messages: `data (0:0), out (0:1)`.
    fn list(&self) -> String {
        if self.bindings.is_empty() {
            return "none".into();
        }
        let list: Vec<String> = self
            .bindings
            .iter()
            .map(|(n, slot, _)| match slot {
                &IMMEDIATE_SLOT => format!("{n} (immediate)"),
                (g, b) => format!("{n} ({g}:{b})"),
            })
            .collect();
        list.join(", ")
    }
}

struct Writer<'a> {
    module: &'a Module,
    len: u64,
    /// How many values `index` takes (a `permutation` fill shuffles them).
    elements: u64,
}

impl Writer<'_> {
    /// The number of flattened array elements of a value of type `ty`: the
    /// largest product of array lengths along a path into it.
    fn elements(&self, ty: Handle<Type>) -> u64 {
        match &self.module.types[ty].inner {
            TypeInner::Array { base, size, .. } => {
                let n = match size {
                    ArraySize::Dynamic => self.len,
                    size => u64::from(vars::array_len(self.module, *size).unwrap_or(0)),
                };
                n.saturating_mul(self.elements(*base))
            }
            TypeInner::Struct { members, .. } => members.iter().map(|m| self.elements(m.ty)).max().unwrap_or(1),
            _ => 1,
        }
    }

    /// Fills the value of type `ty` at `offset`; `index` is the flattened
    /// index of the enclosing array element, if any.
    fn fill(
        &self,
        out: &mut [u8],
        ty: Handle<Type>,
        offset: u64,
        index: Option<u64>,
        fill: &Fill,
        name: &str,
    ) -> Result<(), Error> {
        match &self.module.types[ty].inner {
            TypeInner::Scalar(s) | TypeInner::Atomic(s) => write_fill(out, offset, *s, self.value(index), fill, name),
            TypeInner::Vector { size, scalar } => {
                for i in 0..*size as u64 {
                    write_fill(out, offset + i * u64::from(scalar.width), *scalar, self.value(index), fill, name)?;
                }
                Ok(())
            }
            TypeInner::Matrix { columns, rows, scalar } => {
                let stride = u64::from(vars::column_stride(*rows, scalar.width));
                for c in 0..*columns as u64 {
                    for r in 0..*rows as u64 {
                        let at = offset + c * stride + r * u64::from(scalar.width);
                        write_fill(out, at, *scalar, self.value(index), fill, name)?;
                    }
                }
                Ok(())
            }
            TypeInner::Array { base, size, stride } => {
                let n = match size {
                    ArraySize::Dynamic => self.len,
                    size => u64::from(vars::array_len(self.module, *size).unwrap_or(0)),
                };
                for i in 0..n {
                    let index = index.unwrap_or(0) * n + i;
                    self.fill(out, *base, offset + i * u64::from(*stride), Some(index), fill, name)?;
                }
                Ok(())
            }
            TypeInner::Struct { members, .. } => {
                for m in members {
                    self.fill(out, m.ty, offset + u64::from(m.offset), index, fill, name)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

impl Writer<'_> {
    /// What `index` and `permutation` fills store for the element `index`.
    fn value(&self, index: Option<u64>) -> Indexed {
        Indexed { index: index.unwrap_or(0), elements: self.elements }
    }
}

/// An element's index among `elements`.
#[derive(Clone, Copy)]
struct Indexed {
    index: u64,
    elements: u64,
}

/// The image of `index` under a pseudo-random permutation of `0..n` chosen
/// by `seed`: a bijection of the smallest power-of-two range holding `n`
/// (additions, odd multiplications and xor-shifts, each invertible), walked
/// along its cycle until it lands below `n`.
pub(crate) fn permute(index: u64, n: u64, seed: u64) -> u64 {
    // (An index outside the range has no image; none is asked for.)
    if n <= 1 || index >= n {
        return index.min(n.saturating_sub(1));
    }
    let bits = 64 - (n - 1).leading_zeros();
    let mask = u64::MAX >> (64 - bits);
    let keys: [(u64, u64); 3] =
        std::array::from_fn(|r| (splitmix(seed ^ r as u64), splitmix(seed ^ (r as u64 + 16)) | 1));
    let step = |mut x: u64| {
        for (add, mul) in keys {
            x = x.wrapping_add(add).wrapping_mul(mul) & mask;
            x ^= x >> (bits / 2 + 1);
        }
        x
    };
    let mut x = step(index);
    while x >= n {
        x = step(x);
    }
    x
}

/// SplitMix64, for reproducible `random` fills.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

fn write_fill(
    out: &mut [u8],
    offset: u64,
    scalar: Scalar,
    element: Indexed,
    fill: &Fill,
    name: &str,
) -> Result<(), Error> {
    let at = offset as usize;
    let value = match fill {
        Fill::Index => Value::Int(i128::from(element.index)),
        Fill::Permutation(seed) => Value::Int(i128::from(permute(element.index, element.elements, *seed))),
        Fill::Random(seed) => {
            let r = splitmix(seed.wrapping_mul(0x1000_0000_01b3) ^ offset);
            match scalar.kind {
                ScalarKind::Float => Value::Float((r >> 11) as f64 / (1u64 << 53) as f64),
                _ => Value::Bits(r),
            }
        }
        Fill::Const(v) => parse_value(v, scalar).map_err(|e| Error::Spec(format!("--fill {name}=const:{v}: {e}")))?,
        Fill::Zero | Fill::File(_) => return Ok(()),
    };
    write_scalar(out, at, scalar, value);
    Ok(())
}

#[derive(Clone, Copy)]
enum Value {
    Int(i128),
    Float(f64),
    Bits(u64),
}

fn parse_value(s: &str, scalar: Scalar) -> Result<Value, String> {
    let s = s.trim();
    match scalar.kind {
        ScalarKind::Float | ScalarKind::AbstractFloat => {
            s.trim_end_matches('f').parse::<f64>().map(Value::Float).map_err(|_| format!("`{s}` is not a number"))
        }
        ScalarKind::Bool => match s {
            "true" => Ok(Value::Int(1)),
            "false" => Ok(Value::Int(0)),
            _ => Err(format!("`{s}` is not a boolean")),
        },
        _ => {
            let t = s.trim_end_matches(['u', 'i']);
            let v = match t.strip_prefix("0x") {
                Some(hex) => i128::from_str_radix(hex, 16),
                None => t.parse::<i128>(),
            }
            .map_err(|_| format!("`{s}` is not an integer"))?;
            let (min, max) = match (scalar.kind, scalar.width) {
                (ScalarKind::Sint, 4) => (i128::from(i32::MIN), i128::from(i32::MAX)),
                (ScalarKind::Sint, _) => (i128::from(i64::MIN), i128::from(i64::MAX)),
                (_, 4) => (0, i128::from(u32::MAX)),
                _ => (0, i128::from(u64::MAX)),
            };
            if v < min || v > max {
                return Err(format!("{v} does not fit this field's type"));
            }
            Ok(Value::Int(v))
        }
    }
}

fn write_scalar(out: &mut [u8], at: usize, scalar: Scalar, value: Value) {
    let width = usize::from(scalar.width);
    let Some(slot) = out.get_mut(at..at + width) else { return };
    let bytes: Vec<u8> = match (scalar.kind, scalar.width, value) {
        (ScalarKind::Float, 2, Value::Int(i)) => half::f16::from_f64(i as f64).to_le_bytes().to_vec(),
        (ScalarKind::Float, 2, Value::Float(f)) => half::f16::from_f64(f).to_le_bytes().to_vec(),
        (ScalarKind::Float, 4, Value::Int(i)) => (i as f32).to_le_bytes().to_vec(),
        (ScalarKind::Float, 4, Value::Float(f)) => (f as f32).to_le_bytes().to_vec(),
        (ScalarKind::Float, 8, Value::Int(i)) => (i as f64).to_le_bytes().to_vec(),
        (ScalarKind::Float, 8, Value::Float(f)) => f.to_le_bytes().to_vec(),
        (_, _, Value::Bits(b)) => b.to_le_bytes()[..width].to_vec(),
        (_, _, Value::Int(i)) => (i as i64).to_le_bytes()[..width].to_vec(),
        (_, _, Value::Float(f)) => (f as i64).to_le_bytes()[..width].to_vec(),
    };
    if bytes.len() == width {
        slot.copy_from_slice(&bytes);
    }
}

/// Applies `--set PATH=VALUE`: `PATH` is a buffer name followed by
/// `.field`, `[index]` or vector component (`.x`…) steps.
fn set_value(module: &Module, buffers: &mut [UserBuffer], path: &str, value: &str) -> Result<(), Error> {
    let bad = |why: String| Error::Spec(format!("--set {path}={value}: {why}"));
    let name_end = path.find(['.', '[']).unwrap_or(path.len());
    let name = &path[..name_end];
    let Some(buffer) = buffers.iter_mut().find(|b| b.name == name) else {
        let available = buffers.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(", ");
        return Err(bad(format!("no buffer named `{name}` (buffers: {available})")));
    };
    let mut ty = module.global_variables[buffer.handle].ty;
    let mut offset = 0u64;
    let mut rest = &path[name_end..];
    let mut component: Option<(Scalar, u64)> = None;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').ok_or_else(|| bad("unclosed `[`".into()))?;
            let i: u64 = r[..end].parse().map_err(|_| bad(format!("`{}` is not an index", &r[..end])))?;
            rest = &r[end + 1..];
            match &module.types[ty].inner {
                TypeInner::Array { base, stride, size } => {
                    let n = match size {
                        ArraySize::Dynamic => buffer.runtime_len.unwrap_or(0),
                        size => u64::from(vars::array_len(module, *size).unwrap_or(0)),
                    };
                    if i >= n {
                        return Err(bad(format!("index {i} is out of bounds (length {n})")));
                    }
                    offset += i * u64::from(*stride);
                    ty = *base;
                }
                _ => return Err(bad("indexing something that is not an array".into())),
            }
        } else if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            let field = &r[..end];
            rest = &r[end..];
            match &module.types[ty].inner {
                TypeInner::Struct { members, .. } => {
                    let m = members.iter().find(|m| m.name.as_deref() == Some(field)).ok_or_else(|| {
                        let fields = members.iter().filter_map(|m| m.name.as_deref()).collect::<Vec<_>>().join(", ");
                        bad(format!("no field `{field}` (fields: {fields})"))
                    })?;
                    offset += u64::from(m.offset);
                    ty = m.ty;
                }
                TypeInner::Vector { size, scalar } if rest.is_empty() => {
                    let i = match field {
                        "x" | "r" => 0,
                        "y" | "g" => 1,
                        "z" | "b" => 2,
                        "w" | "a" => 3,
                        _ => return Err(bad(format!("`{field}` is not a vector component"))),
                    };
                    if i >= *size as u64 {
                        return Err(bad(format!("the vector has no component `{field}`")));
                    }
                    component = Some((*scalar, offset + i * u64::from(scalar.width)));
                }
                _ => return Err(bad(format!("`.{field}` on something that is not a struct"))),
            }
        } else {
            return Err(bad(format!("cannot read `{rest}`")));
        }
    }
    let targets: Vec<(Scalar, u64)> = match (component, &module.types[ty].inner) {
        (Some(c), _) => vec![c],
        (None, TypeInner::Scalar(s) | TypeInner::Atomic(s)) => vec![(*s, offset)],
        (None, TypeInner::Vector { size, scalar }) => {
            (0..*size as u64).map(|i| (*scalar, offset + i * u64::from(scalar.width))).collect()
        }
        _ => return Err(bad("the path must end at a scalar or vector".into())),
    };
    let parts: Vec<&str> = value.split(',').collect();
    if parts.len() != targets.len() {
        return Err(bad(format!("expected {} comma-separated component(s)", targets.len())));
    }
    for ((scalar, at), part) in targets.into_iter().zip(parts) {
        let v = parse_value(part, scalar).map_err(bad)?;
        write_scalar(&mut buffer.contents, at as usize, scalar, v);
    }
    Ok(())
}

/// Writes `data` (one entry per buffer, in `buffers` order) to
/// `dir/<name>.bin`, creating `dir`.
///
/// # Errors
/// [`Error::Io`].
pub fn dump(dir: &Path, buffers: &[UserBuffer], data: &[Vec<u8>]) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Io(format!("creating {}: {e}", dir.display())))?;
    for (b, bytes) in buffers.iter().zip(data) {
        if matches!(b.kind, BindingKind::Sampler { .. }) {
            continue;
        }
        let file: String =
            b.name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect();
        let path = dir.join(format!("{file}.bin"));
        std::fs::write(&path, bytes).map_err(|e| Error::Io(format!("writing {}: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(src: &str, spec: &RunSpec) -> Result<Vec<UserBuffer>, Error> {
        let module = naga::front::wgsl::parse_str(src).unwrap();
        plan_buffers(&module, spec, &|_| true, &module, 64).map(|p| p.buffers)
    }

    const SRC: &str = "struct P { n: u32, scale: f32, v: vec2<i32> }
        @group(0) @binding(0) var<uniform> p: P;
        @group(0) @binding(1) var<storage, read_write> data: array<vec2<f32>>;
        @group(0) @binding(2) var<storage, read_write> grid: array<array<u32, 3>, 2>;
        @compute @workgroup_size(1) fn main() {}";

    fn f32s(b: &[u8]) -> Vec<f32> {
        b.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    fn u32s(b: &[u8]) -> Vec<u32> {
        b.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    }

    #[test]
    fn index_fill_numbers_elements() {
        let spec = RunSpec { buffers: vec![("data".into(), 3)], ..Default::default() };
        let b = plan(SRC, &spec).unwrap();
        assert_eq!(f32s(&b[1].contents), [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]);
        assert_eq!(u32s(&b[2].contents), [0, 1, 2, 3, 4, 5]);
        assert_eq!(u32s(&b[0].contents), [0, 0, 0, 0]);
    }

    #[test]
    fn permutation_fill_holds_every_element_index_once() {
        for (len, seed) in [(1000, 0), (1024, 7), (3, 1), (1, 5)] {
            let spec = RunSpec {
                buffers: vec![("data".into(), len)],
                fills: vec![("data".into(), Fill::Permutation(seed)), ("grid".into(), Fill::Permutation(seed))],
                ..Default::default()
            };
            let b = plan(SRC, &spec).unwrap();
            let data = f32s(&b[1].contents);
            // Both components of an element hold its image.
            assert!(data.chunks(2).all(|v| v[0] == v[1]));
            let mut images: Vec<u64> = data.iter().step_by(2).map(|&v| v as u64).collect();
            let shuffled = images.iter().enumerate().filter(|&(i, &v)| i as u64 != v).count();
            images.sort_unstable();
            assert_eq!(images, (0..len).collect::<Vec<_>>(), "length {len}");
            assert!(len < 1000 || shuffled > 900, "{shuffled} of {len} moved");
            let mut grid = u32s(&b[2].contents);
            grid.sort_unstable();
            assert_eq!(grid, [0, 1, 2, 3, 4, 5]);
        }
        let other = RunSpec {
            buffers: vec![("data".into(), 1000)],
            fills: vec![("data".into(), Fill::Permutation(1))],
            ..Default::default()
        };
        let first = RunSpec { fills: vec![("data".into(), Fill::Permutation(0))], ..other.clone() };
        assert_ne!(plan(SRC, &other).unwrap()[1].contents, plan(SRC, &first).unwrap()[1].contents);
    }

    #[test]
    fn default_runtime_length_is_at_least_4096() {
        let b = plan(SRC, &RunSpec::default()).unwrap();
        assert_eq!(b[1].runtime_len, Some(4096));
        assert_eq!(b[1].size(), 4096 * 8);
    }

    #[test]
    fn set_writes_fields_and_components() {
        let spec = RunSpec {
            sets: vec![("p.n".into(), "7".into()), ("p.scale".into(), "0.5".into()), ("p.v".into(), "-1,2".into())],
            ..Default::default()
        };
        let b = plan(SRC, &spec).unwrap();
        let c = &b[0].contents;
        assert_eq!(u32s(&c[0..4]), [7]);
        assert_eq!(f32s(&c[4..8]), [0.5]);
        assert_eq!(u32s(&c[8..16]), [u32::MAX, 2]);
    }

    #[test]
    fn bad_names_and_values_are_reported() {
        let unknown = RunSpec { sets: vec![("p.m".into(), "1".into())], ..Default::default() };
        assert!(plan(SRC, &unknown).unwrap_err().to_string().contains("no field `m`"));
        let fixed = RunSpec { buffers: vec![("grid".into(), 4)], ..Default::default() };
        assert!(plan(SRC, &fixed).unwrap_err().to_string().contains("fixed size"));
        let missing = RunSpec { fills: vec![("nope".into(), Fill::Zero)], ..Default::default() };
        assert!(plan(SRC, &missing).unwrap_err().to_string().contains("no buffer named `nope`"));
        let range = RunSpec { sets: vec![("p.n".into(), "-1".into())], ..Default::default() };
        assert!(plan(SRC, &range).unwrap_err().to_string().contains("does not fit"));
    }

    #[test]
    fn random_fill_is_reproducible() {
        let spec = RunSpec { fills: vec![("grid".into(), Fill::Random(3))], ..Default::default() };
        assert_eq!(plan(SRC, &spec).unwrap()[2].contents, plan(SRC, &spec).unwrap()[2].contents);
    }
}
