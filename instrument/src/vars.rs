//! The variables wgrace tracks and the word layout of their types.
//!
//! wgrace tracks `var<workgroup>` variables and writable `var<storage>`
//! bindings that the entry point uses, in *words* of `unit` bytes: word `w` of
//! a variable covers its bytes `unit·w .. unit·(w+1)`, with offsets from naga's
//! [`Layouter`] (WGSL's host-shareable layout). The unit is 4 bytes, unless the
//! variable's type holds a narrower scalar: 2 for `f16`, 1 for `bool` (naga
//! lays a `bool` out in one byte, while WGSL gives it its own memory location,
//! so byte units keep distinct `bool`s apart). Read-only storage, uniform,
//! private and function memory cannot race and are left alone.
//!
//! Storage textures that the shader writes (`write` and `read_write`
//! access) are tracked too, one word per texel of the view bound: texel
//! `(x, y)` of layer (or depth slice) `z` is word `x + W·(y + H·z)` of a
//! `W`×`H` view ([`TextureVar`]). Sampled, depth and multisampled textures,
//! `read` storage textures and samplers cannot race.

use naga::proc::Layouter;
use naga::{AddressSpace, ArraySize, Handle, Module, StorageAccess, Type, TypeInner};
pub use wgrace_report::Space;

/// A variable whose accesses are instrumented.
#[derive(Clone, Debug)]
pub struct TrackedVar {
    /// Index of the variable in the runtime's parameter table.
    pub id: u32,
    /// The global in the (original and instrumented) module.
    pub handle: Handle<naga::GlobalVariable>,
    /// The variable's name (`group(G)_binding(B)` when the module has none).
    pub name: String,
    /// Its address space.
    pub space: Space,
    /// `(group, binding)` for storage bindings.
    pub binding: Option<(u32, u32)>,
    /// Its type.
    pub ty: Handle<Type>,
    /// Bytes per tracked word: 4, or 2 or 1 for types with `f16` or `bool`;
    /// an element's size for storage arrays accessed only in whole elements
    /// (see `pass::track_whole_elements`).
    pub unit: u32,
    /// Words of the fixed-size part (the whole variable unless it ends in a
    /// runtime-sized array).
    pub fixed_words: u32,
    /// Words per element of the trailing runtime-sized array, if any.
    pub runtime_stride_words: Option<u32>,
    /// For workgroup variables: first word in a workgroup's shadow slot.
    pub slot_base: u32,
    /// Where the variable is declared.
    pub declaration: crate::Location,
    /// Whether it is storage memory with atomics of a scope narrower than
    /// the device (SPIR-V's workgroup-scope atomics on a buffer).
    pub scoped_atomics: bool,
    /// Whether atomics and plain loads or stores (SPIR-V) both access it:
    /// storage or workgroup memory.
    pub plain_and_atomic: bool,
    /// Whether it has atomics of subgroup (or invocation) scope (SPIR-V),
    /// storage or workgroup memory.
    pub subgroup_atomics: bool,
    /// Whether it has atomics of invocation scope (SPIR-V).
    pub invocation_atomics: bool,
    /// Whether no barrier orders its accesses between invocations: a buffer
    /// whose stores are all private under the Vulkan memory model (SPIR-V;
    /// [`crate::Shader::unordered_by_barriers`]). Its races across a
    /// barrier are `barrier-kind`.
    pub unordered_by_barriers: bool,
    /// For variables with any of these: how many of its first words its
    /// atomic accesses and its plain accesses of atomic memory can reach,
    /// when their indices are bounded (none of them indexes a runtime-sized
    /// array).
    pub atomic_words: Option<u32>,
    /// Its first word among those the data-race check's happens-before
    /// engine checks, when it checks this variable's accesses (a buffer that
    /// release and acquire synchronization can order; see
    /// [`crate::checks::data_race::happens_before`]).
    pub happens_before: Option<u32>,
    /// Its atomic locations in that engine (one per word), when its atomics
    /// are ones synchronization goes through.
    pub sync_locations: Option<std::ops::Range<u32>>,
    /// Whether that engine also checks its atomics' own accesses against its
    /// other accesses (memory accessed both atomically and plainly, or a
    /// buffer with atomics narrower than the device, where release and
    /// acquire can order them): the checks of atomic memory then leave its
    /// words to the engine.
    pub engine_checks_atomics: bool,
    /// For a storage texture: its shape, and the size of the view this run
    /// binds. Its words are texels (`unit` 4, `fixed_words` 0, one word per
    /// element of `runtime_stride_words`, the element count the texels).
    pub texture: Option<TextureVar>,
}

/// A tracked storage texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureVar {
    pub dim: naga::ImageDimension,
    pub arrayed: bool,
    pub format: naga::StorageFormat,
    pub access: StorageAccess,
    /// The view's size in this run, when the host told it
    /// (`InstrumentOptions::texture_extents`): texel coordinates in reports
    /// come from it.
    pub extent: Option<TextureExtent>,
}

/// The size of the view of a texture a run binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct TextureExtent {
    pub width: u32,
    pub height: u32,
    /// Depth of a 3D texture, layers of an array texture, else 1.
    pub depth_or_layers: u32,
    /// The mip level the view shows.
    pub mip_level: u32,
}

impl TextureExtent {
    pub fn texels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height) * u64::from(self.depth_or_layers)
    }
}

impl TextureVar {
    /// The texel that word `word` of the texture is: its coordinates
    /// (as many as the texture has), array layer and mip level.
    pub fn texel(&self, word: u64) -> Option<wgrace_report::Texel> {
        let e = self.extent?;
        let (w, h) = (u64::from(e.width.max(1)), u64::from(e.height.max(1)));
        let (x, y, z) = ((word % w) as u32, ((word / w) % h) as u32, (word / (w * h)) as u32);
        let mut coordinates = vec![x];
        if self.dim != naga::ImageDimension::D1 {
            coordinates.push(y);
        }
        if self.dim == naga::ImageDimension::D3 {
            coordinates.push(z);
        }
        Some(wgrace_report::Texel { coordinates, layer: self.arrayed.then_some(z), mip_level: e.mip_level })
    }
}

/// Bytes per texel of a storage texture format.
pub fn texel_bytes(format: naga::StorageFormat) -> u32 {
    use naga::StorageFormat as F;
    match format {
        F::R8Unorm | F::R8Snorm | F::R8Uint | F::R8Sint => 1,
        F::R16Uint | F::R16Sint | F::R16Float | F::Rg8Unorm | F::Rg8Snorm | F::Rg8Uint | F::Rg8Sint => 2,
        F::R16Unorm | F::R16Snorm => 2,
        F::R32Uint | F::R32Sint | F::R32Float | F::Rg16Uint | F::Rg16Sint | F::Rg16Float => 4,
        F::Rgba8Unorm | F::Rgba8Snorm | F::Rgba8Uint | F::Rgba8Sint | F::Bgra8Unorm => 4,
        F::Rgb10a2Uint | F::Rgb10a2Unorm | F::Rg11b10Ufloat | F::Rg16Unorm | F::Rg16Snorm => 4,
        F::R64Uint => 8,
        F::Rg32Uint | F::Rg32Sint | F::Rg32Float | F::Rgba16Uint | F::Rgba16Sint | F::Rgba16Float => 8,
        F::Rgba16Unorm | F::Rgba16Snorm => 8,
        F::Rgba32Uint | F::Rgba32Sint | F::Rgba32Float => 16,
    }
}

/// The storage texture a global of `module` is, if the shader may write it
/// (`write` or `read_write` access).
pub fn written_texture(module: &Module, g: &naga::GlobalVariable) -> Option<TextureVar> {
    match module.types[g.ty].inner {
        TypeInner::Image { dim, arrayed, class: naga::ImageClass::Storage { format, access } }
            if access.contains(StorageAccess::STORE) =>
        {
            Some(TextureVar { dim, arrayed, format, access, extent: None })
        }
        _ => None,
    }
}

impl TrackedVar {
    /// Whether its atomic accesses (and plain accesses of its atomic
    /// memory) call the runtime's `wgrace_atomic_memory`, and the checks
    /// that handle it keep state for its words: a variable with atomics
    /// narrower than the device, or with plain and atomic accesses.
    pub fn atomic_memory(&self) -> bool {
        self.scoped_atomics || self.plain_and_atomic || self.subgroup_atomics
    }
}

impl TrackedVar {
    /// The place word `word` of the variable is: its first byte, its element
    /// path (`tile[3]`, `img(3, 4)`) and, for a texture, its texel.
    pub fn place(&self, module: &Module, word: u64) -> (u64, String, Option<wgrace_report::Texel>) {
        let byte = word * u64::from(self.unit);
        if let Some(texel) = self.texture.and_then(|t| t.texel(word)) {
            return (byte, texel.describe(&self.name), Some(texel));
        }
        let ty = module.global_variables[self.handle].ty;
        (byte, element_path(module, ty, byte, &self.name), None)
    }

    /// Size in words, given the element count of a trailing runtime-sized
    /// array (ignored for fixed-size variables).
    pub fn words(&self, runtime_len: u64) -> u64 {
        u64::from(self.fixed_words) + self.runtime_stride_words.map_or(0, |s| u64::from(s) * runtime_len)
    }
}

/// Element count of a fixed-size array (override-sized ones included, once
/// overrides are resolved); `None` for runtime-sized arrays.
pub fn array_len(module: &Module, size: ArraySize) -> Option<u32> {
    match size.resolve(module.to_ctx()) {
        Ok(naga::proc::IndexableLength::Known(n)) => Some(n),
        Ok(naga::proc::IndexableLength::Dynamic) | Err(_) => None,
    }
}

/// Name used for a global in reports.
pub fn global_name(module: &Module, handle: Handle<naga::GlobalVariable>) -> String {
    let g = &module.global_variables[handle];
    match (&g.name, &g.binding) {
        (Some(name), _) => name.clone(),
        (None, Some(b)) => format!("group{}_binding{}", b.group, b.binding),
        (None, None) => format!("global{}", handle.index()),
    }
}

/// Whether accesses to a global in `space` can race.
pub fn is_racy_space(space: AddressSpace) -> Option<Space> {
    match space {
        AddressSpace::WorkGroup => Some(Space::Workgroup),
        AddressSpace::Storage { access } if access.contains(StorageAccess::STORE) => Some(Space::Storage),
        _ => None,
    }
}

/// Size in bytes of the fixed part of `ty`, and the stride of a trailing
/// runtime-sized array, if any.
pub fn byte_layout(module: &Module, layouter: &Layouter, ty: Handle<Type>) -> (u32, Option<u32>) {
    match &module.types[ty].inner {
        TypeInner::Array { size: ArraySize::Dynamic, stride, .. } => (0, Some(*stride)),
        TypeInner::Struct { members, span } => match members.last() {
            Some(last) => match &module.types[last.ty].inner {
                TypeInner::Array { size: ArraySize::Dynamic, stride, .. } => (last.offset, Some(*stride)),
                _ => (*span, None),
            },
            None => (*span, None),
        },
        _ => (layouter[ty].size, None),
    }
}

/// Bytes per tracked word of a variable of type `ty`: the narrowest scalar
/// it holds, at most 4.
pub fn tracking_unit(module: &Module, ty: Handle<Type>) -> u32 {
    match &module.types[ty].inner {
        TypeInner::Scalar(s)
        | TypeInner::Atomic(s)
        | TypeInner::Vector { scalar: s, .. }
        | TypeInner::Matrix { scalar: s, .. } => u32::from(s.width).clamp(1, 4),
        TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => tracking_unit(module, *base),
        TypeInner::Struct { members, .. } => members.iter().map(|m| tracking_unit(module, m.ty)).min().unwrap_or(4),
        _ => 4,
    }
}

/// Whether a value of type `ty` holds an atomic.
pub fn has_atomic(module: &Module, ty: Handle<Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Atomic(_) => true,
        TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => has_atomic(module, *base),
        TypeInner::Struct { members, .. } => members.iter().any(|m| has_atomic(module, m.ty)),
        _ => false,
    }
}

/// Words (of `unit` bytes) of the fixed part of `ty`, and per element of a
/// trailing runtime-sized array.
pub fn word_layout(module: &Module, layouter: &Layouter, ty: Handle<Type>, unit: u32) -> (u32, Option<u32>) {
    let (fixed, stride) = byte_layout(module, layouter, ty);
    (fixed.div_ceil(unit), stride.map(|s| s.div_ceil(unit)))
}

/// The element path of the byte at offset `byte` of a value of type `ty`,
/// appended to `prefix`: `tile[3]`, `buf.items[17].pos.y`.
pub fn element_path(module: &Module, ty: Handle<Type>, byte: u64, prefix: &str) -> String {
    let mut path = prefix.to_string();
    let mut byte = byte;
    let mut ty = ty;
    loop {
        match &module.types[ty].inner {
            TypeInner::Array { base, stride, .. } => {
                let stride = u64::from((*stride).max(1));
                path.push_str(&format!("[{}]", byte / stride));
                byte %= stride;
                ty = *base;
            }
            TypeInner::Struct { members, .. } => {
                let Some(m) = members.iter().rev().find(|m| u64::from(m.offset) <= byte) else {
                    return path;
                };
                path.push('.');
                path.push_str(m.name.as_deref().unwrap_or("?"));
                byte -= u64::from(m.offset);
                ty = m.ty;
            }
            TypeInner::Vector { size, scalar } => {
                let i = byte / u64::from(scalar.width.max(1));
                if i < *size as u64 {
                    path.push('.');
                    path.push(['x', 'y', 'z', 'w'][i as usize]);
                }
                return path;
            }
            TypeInner::Matrix { rows, scalar, .. } => {
                let column = u64::from(column_stride(*rows, scalar.width));
                path.push_str(&format!("[{}]", byte / column));
                let row = (byte % column) / u64::from(scalar.width.max(1));
                path.push_str(&format!("[{row}]"));
                return path;
            }
            _ => return path,
        }
    }
}

/// Bytes between the columns of a matrix with `rows` rows of `width`-byte
/// scalars (columns are aligned like vectors).
pub fn column_stride(rows: naga::VectorSize, width: u8) -> u32 {
    let rows = match rows {
        naga::VectorSize::Bi => 2,
        naga::VectorSize::Tri | naga::VectorSize::Quad => 4,
    };
    rows * u32::from(width)
}
