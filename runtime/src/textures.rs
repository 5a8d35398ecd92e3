//! The user's textures and samplers: one per binding the entry point uses,
//! shaped by its type and by `--texture`, filled by `--fill`.
//!
//! `--texture NAME=W[xH[xD]][:FORMAT][:mip=L][:samples=N]` gives a texture's
//! size (`D` is a 3D texture's depth or an array texture's layer count; a
//! cube has 6 layers, a cube array `6·D`), its format where the shader
//! leaves it open (sampled and depth textures; a storage texture's is its
//! type's), the mip level the binding views (the texture gets levels 0 to
//! `L`, `W`×`H` the size of level 0) and a multisampled texture's sample
//! count. Without it a texture is 64×64 (×4 layers for arrays, ×8 deep
//! for 3D), of level 0.
//!
//! Default formats: `rgba8unorm` for float sampled textures, `rgba32uint` and
//! `rgba32sint` for integer ones, `depth16unorm` for depth textures (the
//! depth format a copy can fill), 4 samples for multisampled ones.
//!
//! Fills (`--fill NAME=…`) give each component of a texel: `index` (the
//! default) the texel's index in its level, `x + W·(y + H·z)`, as an integer
//! or float (normalized formats keep its low bits); `random[:SEED]` and
//! `permutation[:SEED]` as for buffers; `const:V` or `const:R,G,B,A` the
//! value of every texel (a float for float and normalized formats); `zero`;
//! `file:PATH` a PNG image of the view's size (converted to the format: an
//! 8-bit normalized one, or a float one with values in [0, 1]) or raw texel
//! bytes. Multisampled textures and `depth32float` cannot be copied to:
//! they take `zero` and `const` fills, which a render pass clears them to.
//!
//! Samplers filter linearly and clamp to the edge; comparison samplers
//! compare with `less-equal`.

use naga::{Handle, ImageClass, ImageDimension, Module, ScalarKind, StorageAccess, TypeInner};
use wgpu::TextureFormat as F;
use wgrace_instrument::vars::TextureExtent;

use crate::Error;
use crate::spec::{Fill, TextureArg};

/// How a texture binding is bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextureBinding {
    /// The view's dimension.
    pub dim: ImageDimension,
    pub arrayed: bool,
    pub format: F,
    /// The storage texture's access, for storage textures.
    pub storage: Option<StorageAccess>,
    /// Samples per texel (1 unless multisampled).
    pub samples: u32,
    /// The texture's size at level 0: width, height, depth or layers.
    pub size: [u32; 3],
    /// The level the binding views (the texture has levels 0 to it).
    pub mip_level: u32,
}

impl TextureBinding {
    /// The view's size: the texture's at [`TextureBinding::mip_level`].
    pub fn extent(&self) -> TextureExtent {
        let level = |n: u32| (n >> self.mip_level).max(1);
        let depth_or_layers = if self.dim == ImageDimension::D3 { level(self.size[2]) } else { self.size[2] };
        TextureExtent {
            width: level(self.size[0]),
            height: level(self.size[1]),
            depth_or_layers,
            mip_level: self.mip_level,
        }
    }

    /// Bytes per texel of the view's format.
    pub fn texel_bytes(&self) -> u32 {
        self.format.block_copy_size(None).unwrap_or(4)
    }

    /// Whether the texture can be filled by a copy (else by a render pass
    /// clearing it).
    pub fn copyable(&self) -> bool {
        self.samples == 1 && self.format != F::Depth32Float
    }

    /// Whether the shader may write it: a `write` or `read_write` storage
    /// texture, which wgrace tracks per texel.
    pub fn written(&self) -> bool {
        self.storage.is_some_and(|a| a.contains(StorageAccess::STORE))
    }
}

/// What a planned texture holds: the binding and the view's bytes, level
/// [`TextureBinding::mip_level`] only, rows and layers tightly packed (as
/// `--dump` writes them); for a texture filled by clearing, one texel.
pub struct PlannedTexture {
    pub binding: TextureBinding,
    pub contents: Vec<u8>,
}

/// The texture of global `handle` (a texture type), from its `--texture`
/// spec and fill; `name` for messages.
///
/// # Errors
/// [`Error::Spec`] for bad sizes, formats or fills; [`Error::Unsupported`]
/// for external textures.
pub fn plan_texture(
    module: &Module,
    handle: Handle<naga::GlobalVariable>,
    name: &str,
    arg: Option<&TextureArg>,
    fill: &Fill,
) -> Result<PlannedTexture, Error> {
    let g = &module.global_variables[handle];
    let TypeInner::Image { dim, arrayed, class } = module.types[g.ty].inner else {
        return Err(Error::Internal(format!("`{name}` is not a texture")));
    };
    let spec_err = |why: String| Error::Spec(format!("--texture {name}=…: {why}"));
    let (default_format, storage, multi) = match class {
        ImageClass::Sampled { kind, multi } => (
            match kind {
                ScalarKind::Sint => F::Rgba32Sint,
                ScalarKind::Uint => F::Rgba32Uint,
                _ => F::Rgba8Unorm,
            },
            None,
            multi,
        ),
        ImageClass::Depth { multi } => (if multi { F::Depth32Float } else { F::Depth16Unorm }, None, multi),
        ImageClass::Storage { format, access } => (storage_format(format), Some(access), false),
        ImageClass::External => {
            return Err(Error::Unsupported(format!(
                "binding `{name}` is a texture_external, which wgrace cannot bind; declare it texture_2d<f32> to \
                 check the shader"
            )));
        }
    };
    let format = match arg.and_then(|a| a.format.as_deref()) {
        None => default_format,
        Some(text) => {
            let format = parse_format(text).ok_or_else(|| spec_err(format!("unknown format `{text}`")))?;
            if storage.is_some() && format != default_format {
                return Err(spec_err(format!(
                    "a storage texture has its type's format, {}",
                    format_name(default_format)
                )));
            }
            if !fits(class, format) {
                return Err(spec_err(format!("{text} does not fit the binding's type")));
            }
            format
        }
    };
    let layers_default = match (dim, arrayed) {
        (ImageDimension::Cube, false) => 6,
        (ImageDimension::Cube, true) => 6 * 4,
        (ImageDimension::D3, _) => 8,
        (_, true) => 4,
        _ => 1,
    };
    let mut size = match arg {
        Some(a) => [a.size[0], a.given()[1].unwrap_or(1), a.given()[2].unwrap_or(1)],
        None => [64, if dim == ImageDimension::D1 { 1 } else { 64 }, layers_default],
    };
    if let Some(a) = arg {
        let [_, h, d] = a.given();
        if dim == ImageDimension::D1 && (h.is_some() || d.is_some()) {
            return Err(spec_err("a 1D texture has a width only".into()));
        }
        if dim == ImageDimension::Cube {
            if a.size[0] != size[1] {
                return Err(spec_err("a cube's faces are square: give WxW".into()));
            }
            size[2] = 6 * d.unwrap_or(1);
        }
        if dim == ImageDimension::D2 && !arrayed && d.is_some_and(|d| d != 1) {
            return Err(spec_err("a 2D texture that is not an array has one layer".into()));
        }
    }
    if size.contains(&0) {
        return Err(spec_err("sizes must be at least 1".into()));
    }
    let mip_level = arg.map_or(0, |a| a.mip_level);
    let largest = size[0].max(size[1]).max(if dim == ImageDimension::D3 { size[2] } else { 1 });
    if mip_level >= 32 || largest >> mip_level == 0 {
        return Err(spec_err(format!("a texture of {largest} texels has no mip level {mip_level}")));
    }
    let samples = if multi { arg.and_then(|a| a.samples).unwrap_or(4) } else { 1 };
    if !multi && arg.and_then(|a| a.samples).is_some_and(|s| s != 1) {
        return Err(spec_err("only multisampled textures have several samples".into()));
    }
    if multi && mip_level > 0 {
        return Err(spec_err("a multisampled texture has one mip level".into()));
    }
    let binding = TextureBinding { dim, arrayed, format, storage, samples, size, mip_level };
    let contents = texture_contents(&binding, fill, name)?;
    Ok(PlannedTexture { binding, contents })
}

/// The view's bytes with `fill`.
fn texture_contents(t: &TextureBinding, fill: &Fill, name: &str) -> Result<Vec<u8>, Error> {
    let bad = |why: String| Error::Spec(format!("--fill {name}=…: {why}"));
    let extent = t.extent();
    let texel = t.texel_bytes() as usize;
    if !t.copyable() {
        // Cleared, not copied: one texel of the clear value.
        return match fill {
            Fill::Zero | Fill::Index => Ok(vec![0; texel]),
            Fill::Const(v) => encode_texel(t.format, &const_components(v, t.format).map_err(bad)?, name),
            _ => Err(bad(format!(
                "a {} texture takes only zero and const fills (it cannot be copied to)",
                if t.samples > 1 { "multisampled" } else { "depth32float" }
            ))),
        };
    }
    let texels = usize::try_from(extent.texels()).map_err(|_| bad("the texture is too large".into()))?;
    let bytes = texels.checked_mul(texel).ok_or_else(|| bad("the texture is too large".into()))?;
    let components = channels(t.format).ok_or_else(|| {
        Error::Unsupported(format!("texture `{name}`: wgrace cannot fill a {} texture", format_name(t.format)))
    });
    let mut out = Vec::with_capacity(bytes);
    match fill {
        Fill::Zero => out.resize(bytes, 0),
        Fill::File(path) => {
            let data = std::fs::read(path).map_err(|e| bad(format!("file:{}: {e}", path.display())))?;
            if data.starts_with(b"\x89PNG\r\n\x1a\n") {
                out = png_texels(&data, t, extent).map_err(|e| bad(format!("file:{}: {e}", path.display())))?;
            } else {
                if data.len() > bytes {
                    return Err(bad(format!(
                        "file:{}: {} bytes, more than the {bytes} of the view's texels",
                        path.display(),
                        data.len()
                    )));
                }
                out = data;
                out.resize(bytes, 0);
            }
        }
        Fill::Const(v) => {
            components?;
            let one = encode_texel(t.format, &const_components(v, t.format).map_err(bad)?, name)?;
            for _ in 0..texels {
                out.extend_from_slice(&one);
            }
        }
        Fill::Index => generate(&mut out, components?, texels, TexelValue::Int),
        Fill::Permutation(seed) => generate(&mut out, components?, texels, |i| {
            TexelValue::Int(crate::buffers::permute(i, texels as u64, *seed))
        }),
        Fill::Random(seed) => generate(&mut out, components?, texels, |i| TexelValue::Random(*seed, i)),
    }
    Ok(out)
}

/// Appends `texels` texels, texel `i` with every component `value(i)`.
fn generate(out: &mut Vec<u8>, (count, channel): (u32, Channel), texels: usize, value: impl Fn(u64) -> TexelValue) {
    for i in 0..texels as u64 {
        for c in 0..count {
            channel.write(out, value(i), c);
        }
    }
}

/// A texel value of a generated fill.
#[derive(Clone, Copy)]
enum TexelValue {
    Int(u64),
    /// A seed and the texel's index.
    Random(u64, u64),
}

/// How a format stores one component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Channel {
    Unorm8,
    Snorm8,
    Uint8,
    Sint8,
    Unorm16,
    Snorm16,
    Uint16,
    Sint16,
    Float16,
    Uint32,
    Sint32,
    Float32,
}

impl Channel {
    fn write(self, out: &mut Vec<u8>, value: TexelValue, component: u32) {
        let bits = |width: u32| -> u64 {
            match value {
                TexelValue::Int(i) => i,
                TexelValue::Random(seed, i) => {
                    crate::buffers::splitmix(seed.wrapping_mul(0x1000_0000_01b3) ^ (i * 4 + u64::from(component)))
                        >> (64 - width)
                }
            }
        };
        let float = || match value {
            TexelValue::Int(i) => i as f64,
            TexelValue::Random(..) => bits(53) as f64 / (1u64 << 53) as f64,
        };
        match self {
            Channel::Unorm8 | Channel::Snorm8 | Channel::Uint8 | Channel::Sint8 => out.push(bits(8) as u8),
            Channel::Unorm16 | Channel::Snorm16 | Channel::Uint16 | Channel::Sint16 => {
                out.extend_from_slice(&(bits(16) as u16).to_le_bytes());
            }
            Channel::Uint32 | Channel::Sint32 => out.extend_from_slice(&(bits(32) as u32).to_le_bytes()),
            Channel::Float16 => out.extend_from_slice(&half::f16::from_f64(float()).to_le_bytes()),
            Channel::Float32 => out.extend_from_slice(&(float() as f32).to_le_bytes()),
        }
    }

    /// One component from a number given by the user.
    fn encode(self, v: f64, out: &mut Vec<u8>) {
        let norm = |v: f64, max: f64, lo: f64| (v.clamp(lo, 1.0) * max).round();
        match self {
            Channel::Unorm8 => out.push(norm(v, 255.0, 0.0) as u8),
            Channel::Snorm8 => out.push(norm(v, 127.0, -1.0) as i8 as u8),
            Channel::Uint8 => out.push(v as u8),
            Channel::Sint8 => out.push(v as i8 as u8),
            Channel::Unorm16 => out.extend_from_slice(&(norm(v, 65535.0, 0.0) as u16).to_le_bytes()),
            Channel::Snorm16 => out.extend_from_slice(&(norm(v, 32767.0, -1.0) as i16).to_le_bytes()),
            Channel::Uint16 => out.extend_from_slice(&(v as u16).to_le_bytes()),
            Channel::Sint16 => out.extend_from_slice(&(v as i16).to_le_bytes()),
            Channel::Float16 => out.extend_from_slice(&half::f16::from_f64(v).to_le_bytes()),
            Channel::Uint32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
            Channel::Sint32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
            Channel::Float32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
        }
    }
}

/// Components per texel and how each is stored, for the formats wgrace
/// fills component by component.
fn channels(format: F) -> Option<(u32, Channel)> {
    use Channel as C;
    Some(match format {
        F::R8Unorm => (1, C::Unorm8),
        F::R8Snorm => (1, C::Snorm8),
        F::R8Uint => (1, C::Uint8),
        F::R8Sint => (1, C::Sint8),
        F::Rg8Unorm => (2, C::Unorm8),
        F::Rg8Snorm => (2, C::Snorm8),
        F::Rg8Uint => (2, C::Uint8),
        F::Rg8Sint => (2, C::Sint8),
        F::Rgba8Unorm | F::Rgba8UnormSrgb | F::Bgra8Unorm | F::Bgra8UnormSrgb => (4, C::Unorm8),
        F::Rgba8Snorm => (4, C::Snorm8),
        F::Rgba8Uint => (4, C::Uint8),
        F::Rgba8Sint => (4, C::Sint8),
        F::R16Unorm | F::Depth16Unorm => (1, C::Unorm16),
        F::R16Snorm => (1, C::Snorm16),
        F::R16Uint => (1, C::Uint16),
        F::R16Sint => (1, C::Sint16),
        F::R16Float => (1, C::Float16),
        F::Rg16Unorm => (2, C::Unorm16),
        F::Rg16Snorm => (2, C::Snorm16),
        F::Rg16Uint => (2, C::Uint16),
        F::Rg16Sint => (2, C::Sint16),
        F::Rg16Float => (2, C::Float16),
        F::Rgba16Unorm => (4, C::Unorm16),
        F::Rgba16Snorm => (4, C::Snorm16),
        F::Rgba16Uint => (4, C::Uint16),
        F::Rgba16Sint => (4, C::Sint16),
        F::Rgba16Float => (4, C::Float16),
        F::R32Uint => (1, C::Uint32),
        F::R32Sint => (1, C::Sint32),
        F::R32Float | F::Depth32Float => (1, C::Float32),
        F::Rg32Uint => (2, C::Uint32),
        F::Rg32Sint => (2, C::Sint32),
        F::Rg32Float => (2, C::Float32),
        F::Rgba32Uint => (4, C::Uint32),
        F::Rgba32Sint => (4, C::Sint32),
        F::Rgba32Float => (4, C::Float32),
        _ => return None,
    })
}

/// The components of `const:V` or `const:R,G,B,A`, as numbers.
fn const_components(v: &str, format: F) -> Result<Vec<f64>, String> {
    let (count, _) = channels(format).ok_or_else(|| format!("wgrace cannot fill a {} texture", format_name(format)))?;
    let values = v
        .split(',')
        .map(|c| c.trim().trim_end_matches(['f', 'u', 'i']).parse::<f64>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| format!("const:{v}: give a number, or one per component"))?;
    match values.len() {
        1 => Ok(vec![values[0]; count as usize]),
        n if n == count as usize => Ok(values),
        n => Err(format!("const:{v}: {n} components for a format with {count}")),
    }
}

fn encode_texel(format: F, components: &[f64], name: &str) -> Result<Vec<u8>, Error> {
    let (_, channel) = channels(format).ok_or_else(|| {
        Error::Unsupported(format!("texture `{name}`: wgrace cannot fill a {} texture", format_name(format)))
    })?;
    let mut out = Vec::new();
    for &c in components {
        channel.encode(c, &mut out);
    }
    Ok(out)
}

/// A PNG image's pixels as the view's texels: 8-bit normalized formats
/// take its bytes, float formats its values in [0, 1].
fn png_texels(data: &[u8], t: &TextureBinding, extent: TextureExtent) -> Result<Vec<u8>, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(data));
    decoder.set_transformations(png::Transformations::normalize_to_color8() | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let (width, height) = (reader.info().width, reader.info().height);
    if (width, height) != (extent.width, extent.height) || extent.depth_or_layers != 1 {
        return Err(format!(
            "the image is {width}x{height}, the view {}x{}x{} (give --texture the image's size)",
            extent.width, extent.height, extent.depth_or_layers
        ));
    }
    let mut pixels = vec![0; reader.output_buffer_size().ok_or("the image is too large")?];
    let frame = reader.next_frame(&mut pixels).map_err(|e| e.to_string())?;
    let channels_in = match frame.color_type {
        png::ColorType::GrayscaleAlpha => 2,
        png::ColorType::Rgba => 4,
        other => return Err(format!("unexpected PNG colour type {other:?}")),
    };
    let (count, channel) = channels(t.format).ok_or_else(|| format!("a {} texture", format_name(t.format)))?;
    let mut out = Vec::new();
    for pixel in pixels[..frame.buffer_size()].chunks_exact(channels_in) {
        let rgba = if channels_in == 2 {
            [pixel[0], pixel[0], pixel[0], pixel[1]]
        } else {
            [pixel[0], pixel[1], pixel[2], pixel[3]]
        };
        let rgba = if matches!(t.format, F::Bgra8Unorm | F::Bgra8UnormSrgb) {
            [rgba[2], rgba[1], rgba[0], rgba[3]]
        } else {
            rgba
        };
        for &c in &rgba[..count as usize] {
            match channel {
                Channel::Unorm8 => out.push(c),
                Channel::Float16 | Channel::Float32 | Channel::Unorm16 => {
                    channel.encode(f64::from(c) / 255.0, &mut out)
                }
                _ => return Err(format!("a PNG fills normalized and float textures, not {}", format_name(t.format))),
            }
        }
    }
    Ok(out)
}

/// Whether `format` can be the format of a binding of class `class`.
fn fits(class: ImageClass, format: F) -> bool {
    use wgpu::TextureSampleType as S;
    let Some(sample) = format.sample_type(None, None) else { return false };
    match class {
        ImageClass::Sampled { kind: ScalarKind::Float, .. } => matches!(sample, S::Float { .. }),
        ImageClass::Sampled { kind: ScalarKind::Sint, .. } => sample == S::Sint,
        ImageClass::Sampled { kind: ScalarKind::Uint, .. } => sample == S::Uint,
        ImageClass::Depth { .. } => sample == S::Depth,
        _ => false,
    }
}

/// The wgpu format of a WGSL storage texture format.
pub fn storage_format(format: naga::StorageFormat) -> F {
    use naga::StorageFormat as N;
    match format {
        N::R8Unorm => F::R8Unorm,
        N::R8Snorm => F::R8Snorm,
        N::R8Uint => F::R8Uint,
        N::R8Sint => F::R8Sint,
        N::R16Uint => F::R16Uint,
        N::R16Sint => F::R16Sint,
        N::R16Float => F::R16Float,
        N::Rg8Unorm => F::Rg8Unorm,
        N::Rg8Snorm => F::Rg8Snorm,
        N::Rg8Uint => F::Rg8Uint,
        N::Rg8Sint => F::Rg8Sint,
        N::R32Uint => F::R32Uint,
        N::R32Sint => F::R32Sint,
        N::R32Float => F::R32Float,
        N::Rg16Uint => F::Rg16Uint,
        N::Rg16Sint => F::Rg16Sint,
        N::Rg16Float => F::Rg16Float,
        N::Rgba8Unorm => F::Rgba8Unorm,
        N::Rgba8Snorm => F::Rgba8Snorm,
        N::Rgba8Uint => F::Rgba8Uint,
        N::Rgba8Sint => F::Rgba8Sint,
        N::Bgra8Unorm => F::Bgra8Unorm,
        N::Rgb10a2Uint => F::Rgb10a2Uint,
        N::Rgb10a2Unorm => F::Rgb10a2Unorm,
        N::Rg11b10Ufloat => F::Rg11b10Ufloat,
        N::R64Uint => F::R64Uint,
        N::Rg32Uint => F::Rg32Uint,
        N::Rg32Sint => F::Rg32Sint,
        N::Rg32Float => F::Rg32Float,
        N::Rgba16Uint => F::Rgba16Uint,
        N::Rgba16Sint => F::Rgba16Sint,
        N::Rgba16Float => F::Rgba16Float,
        N::Rgba32Uint => F::Rgba32Uint,
        N::Rgba32Sint => F::Rgba32Sint,
        N::Rgba32Float => F::Rgba32Float,
        N::R16Unorm => F::R16Unorm,
        N::R16Snorm => F::R16Snorm,
        N::Rg16Unorm => F::Rg16Unorm,
        N::Rg16Snorm => F::Rg16Snorm,
        N::Rgba16Unorm => F::Rgba16Unorm,
        N::Rgba16Snorm => F::Rgba16Snorm,
    }
}

/// The formats `--texture` names, by their WebGPU names.
const FORMATS: [(&str, F); 46] = [
    ("r8unorm", F::R8Unorm),
    ("r8snorm", F::R8Snorm),
    ("r8uint", F::R8Uint),
    ("r8sint", F::R8Sint),
    ("r16unorm", F::R16Unorm),
    ("r16snorm", F::R16Snorm),
    ("r16uint", F::R16Uint),
    ("r16sint", F::R16Sint),
    ("r16float", F::R16Float),
    ("rg8unorm", F::Rg8Unorm),
    ("rg8snorm", F::Rg8Snorm),
    ("rg8uint", F::Rg8Uint),
    ("rg8sint", F::Rg8Sint),
    ("r32uint", F::R32Uint),
    ("r32sint", F::R32Sint),
    ("r32float", F::R32Float),
    ("rg16unorm", F::Rg16Unorm),
    ("rg16snorm", F::Rg16Snorm),
    ("rg16uint", F::Rg16Uint),
    ("rg16sint", F::Rg16Sint),
    ("rg16float", F::Rg16Float),
    ("rgba8unorm", F::Rgba8Unorm),
    ("rgba8unorm-srgb", F::Rgba8UnormSrgb),
    ("rgba8snorm", F::Rgba8Snorm),
    ("rgba8uint", F::Rgba8Uint),
    ("rgba8sint", F::Rgba8Sint),
    ("bgra8unorm", F::Bgra8Unorm),
    ("bgra8unorm-srgb", F::Bgra8UnormSrgb),
    ("rgb10a2uint", F::Rgb10a2Uint),
    ("rgb10a2unorm", F::Rgb10a2Unorm),
    ("rg11b10ufloat", F::Rg11b10Ufloat),
    ("r64uint", F::R64Uint),
    ("rg32uint", F::Rg32Uint),
    ("rg32sint", F::Rg32Sint),
    ("rg32float", F::Rg32Float),
    ("rgba16unorm", F::Rgba16Unorm),
    ("rgba16snorm", F::Rgba16Snorm),
    ("rgba16uint", F::Rgba16Uint),
    ("rgba16sint", F::Rgba16Sint),
    ("rgba16float", F::Rgba16Float),
    ("rgba32uint", F::Rgba32Uint),
    ("rgba32sint", F::Rgba32Sint),
    ("rgba32float", F::Rgba32Float),
    ("depth16unorm", F::Depth16Unorm),
    ("depth32float", F::Depth32Float),
    ("depth24plus", F::Depth24Plus),
];

/// A format's WebGPU name: `rgba8unorm`.
pub fn format_name(format: F) -> String {
    FORMATS.iter().find(|(_, f)| *f == format).map_or_else(|| format!("{format:?}"), |(n, _)| (*n).to_string())
}

/// A format from its WebGPU name.
fn parse_format(name: &str) -> Option<F> {
    FORMATS.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, f)| *f)
}

/// A texture of the user's on the GPU: the texture and the view bound.
pub struct GpuTexture {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
}

/// Creates texture `t` (`name` for messages), with `contents` in the view's
/// level.
///
/// # Errors
/// [`Error::Limit`] for a size past the device's limits;
/// [`Error::Unsupported`] for a format the adapter cannot use so.
pub fn create(gpu: &crate::gpu::Gpu, name: &str, t: &TextureBinding, contents: &[u8]) -> Result<GpuTexture, Error> {
    let limits = gpu.device.limits();
    let (largest, limit) = match t.dim {
        ImageDimension::D1 => (t.size[0], limits.max_texture_dimension_1d),
        ImageDimension::D3 => (t.size[0].max(t.size[1]).max(t.size[2]), limits.max_texture_dimension_3d),
        _ => (t.size[0].max(t.size[1]), limits.max_texture_dimension_2d),
    };
    if largest > limit || (t.dim != ImageDimension::D3 && t.size[2] > limits.max_texture_array_layers) {
        return Err(Error::Limit(format!(
            "texture `{name}` is {}x{}x{}, past the adapter's limits ({limit} texels a side, {} layers)",
            t.size[0], t.size[1], t.size[2], limits.max_texture_array_layers
        )));
    }
    let adapter_formats = gpu.device.features().contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES);
    let features = if adapter_formats {
        gpu.adapter.get_texture_format_features(t.format)
    } else {
        t.format.guaranteed_format_features(gpu.device.features())
    };
    let unsupported = |what: &str| {
        Error::Unsupported(format!(
            "texture `{name}`: {} on {} does not support {what}",
            format_name(t.format),
            gpu.info.name
        ))
    };
    let mut usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_SRC;
    if let Some(access) = t.storage {
        if !features.allowed_usages.contains(wgpu::TextureUsages::STORAGE_BINDING) {
            return Err(unsupported("storage textures"));
        }
        let read_write = access.contains(StorageAccess::LOAD | StorageAccess::STORE);
        if read_write && !features.flags.contains(wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE) {
            return Err(unsupported("read_write storage access"));
        }
        usage |= wgpu::TextureUsages::STORAGE_BINDING;
    }
    if t.copyable() {
        usage |= wgpu::TextureUsages::COPY_DST;
    } else {
        usage |= wgpu::TextureUsages::RENDER_ATTACHMENT;
        if t.samples > 1 && !features.flags.sample_count_supported(t.samples) {
            return Err(unsupported(&format!("{} samples", t.samples)));
        }
    }
    let dimension = match t.dim {
        ImageDimension::D1 => wgpu::TextureDimension::D1,
        ImageDimension::D3 => wgpu::TextureDimension::D3,
        _ => wgpu::TextureDimension::D2,
    };
    let view_dimension = match (t.dim, t.arrayed) {
        (ImageDimension::D1, _) => wgpu::TextureViewDimension::D1,
        (ImageDimension::D2, false) => wgpu::TextureViewDimension::D2,
        (ImageDimension::D2, true) => wgpu::TextureViewDimension::D2Array,
        (ImageDimension::Cube, false) => wgpu::TextureViewDimension::Cube,
        (ImageDimension::Cube, true) => wgpu::TextureViewDimension::CubeArray,
        (ImageDimension::D3, _) => wgpu::TextureViewDimension::D3,
    };
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some(name),
        size: wgpu::Extent3d { width: t.size[0], height: t.size[1], depth_or_array_layers: t.size[2] },
        mip_level_count: t.mip_level + 1,
        sample_count: t.samples,
        dimension,
        format: t.format,
        usage,
        view_formats: &[],
    });
    let view = texture.create_view(&wgpu::TextureViewDescriptor {
        label: Some(name),
        dimension: Some(view_dimension),
        base_mip_level: t.mip_level,
        mip_level_count: Some(1),
        ..Default::default()
    });
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(Error::Gpu(format!("cannot create texture `{name}`: {e}")));
    }
    let created = GpuTexture { texture, view };
    upload(gpu, &created, t, contents);
    Ok(created)
}

/// Writes `contents` (see [`PlannedTexture`]) into the view's level.
pub fn upload(gpu: &crate::gpu::Gpu, gpu_texture: &GpuTexture, t: &TextureBinding, contents: &[u8]) {
    let e = t.extent();
    if t.copyable() {
        gpu.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &gpu_texture.texture,
                mip_level: t.mip_level,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            contents,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(e.width * t.texel_bytes()),
                rows_per_image: Some(e.height),
            },
            wgpu::Extent3d { width: e.width, height: e.height, depth_or_array_layers: e.depth_or_layers },
        );
        return;
    }
    // Cleared by a render pass, layer by layer, to the one texel.
    let value = decode_texel(t.format, contents);
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    for layer in 0..t.size[2] {
        let view = gpu_texture.texture.create_view(&wgpu::TextureViewDescriptor {
            dimension: Some(wgpu::TextureViewDimension::D2),
            base_array_layer: layer,
            array_layer_count: Some(1),
            ..Default::default()
        });
        let depth = t.format.is_depth_stencil_format();
        let color = [(!depth).then(|| wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color { r: value[0], g: value[1], b: value[2], a: value[3] }),
                store: wgpu::StoreOp::Store,
            },
        })];
        let depth_attachment = depth.then(|| wgpu::RenderPassDepthStencilAttachment {
            view: &view,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(value[0] as f32),
                store: wgpu::StoreOp::Store,
            }),
            stencil_ops: None,
        });
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("wgrace texture clear"),
            color_attachments: if depth { &[] } else { &color },
            depth_stencil_attachment: depth_attachment,
            ..Default::default()
        });
    }
    gpu.queue.submit([encoder.finish()]);
}

/// The view's texels as [`PlannedTexture`] lays them out: what `--dump`
/// writes. A texture filled by clearing (read-only) keeps its contents.
///
/// # Errors
/// [`Error::Gpu`] if the copy cannot be read.
pub fn read(
    gpu: &crate::gpu::Gpu,
    gpu_texture: &GpuTexture,
    t: &TextureBinding,
    contents: &[u8],
) -> Result<Vec<u8>, Error> {
    if !t.copyable() || !t.written() {
        return Ok(contents.to_vec());
    }
    let e = t.extent();
    let row = e.width * t.texel_bytes();
    let padded = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
    let rows = e.height * e.depth_or_layers;
    let staging = gpu.device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("wgrace texture readback"),
        size: u64::from(padded) * u64::from(rows),
        usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture: &gpu_texture.texture,
            mip_level: t.mip_level,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &staging,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(e.height),
            },
        },
        wgpu::Extent3d { width: e.width, height: e.height, depth_or_array_layers: e.depth_or_layers },
    );
    gpu.queue.submit([encoder.finish()]);
    let bytes = gpu.read_buffer(&staging, staging.size())?;
    Ok(bytes.chunks(padded as usize).take(rows as usize).flat_map(|r| &r[..row as usize]).copied().collect())
}

/// The components of one encoded texel (a clear value), as numbers.
fn decode_texel(format: F, bytes: &[u8]) -> [f64; 4] {
    let mut out = [0.0; 4];
    let Some((count, channel)) = channels(format) else { return out };
    let width = bytes.len() / count.max(1) as usize;
    for (i, c) in bytes.chunks(width.max(1)).take(4).enumerate() {
        let u = c.iter().rev().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        out[i] = match channel {
            Channel::Unorm8 => u as f64 / 255.0,
            Channel::Snorm8 => f64::from(u as u8 as i8) / 127.0,
            Channel::Unorm16 => u as f64 / 65535.0,
            Channel::Snorm16 => f64::from(u as u16 as i16) / 32767.0,
            Channel::Uint8 | Channel::Uint16 | Channel::Uint32 => u as f64,
            Channel::Sint8 => f64::from(u as u8 as i8),
            Channel::Sint16 => f64::from(u as u16 as i16),
            Channel::Sint32 => f64::from(u as u32 as i32),
            Channel::Float16 => half::f16::from_bits(u as u16).to_f64(),
            Channel::Float32 => f64::from(f32::from_bits(u as u32)),
        };
    }
    out
}

/// The sampler bound to every sampler binding: linear filtering, clamped
/// to the edge; a comparison sampler compares with `less-equal`.
pub fn sampler(gpu: &crate::gpu::Gpu, comparison: bool) -> wgpu::Sampler {
    gpu.device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("wgrace sampler"),
        mag_filter: wgpu::FilterMode::Linear,
        min_filter: wgpu::FilterMode::Linear,
        mipmap_filter: wgpu::MipmapFilterMode::Linear,
        compare: comparison.then_some(wgpu::CompareFunction::LessEqual),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(src: &str, arg: Option<&str>, fill: &Fill) -> Result<PlannedTexture, Error> {
        let module = naga::front::wgsl::parse_str(src).expect("wgsl");
        let (handle, _) = module.global_variables.iter().next().expect("a global");
        let arg = arg.map(|a| TextureArg::parse("t", a).expect("spec"));
        plan_texture(&module, handle, "t", arg.as_ref(), fill)
    }

    #[test]
    fn sizes_formats_and_levels_come_from_the_spec_or_the_defaults() {
        let t = planned("var t: texture_2d<f32>;", None, &Fill::Zero).expect("plan").binding;
        assert_eq!((t.size, t.format, t.mip_level, t.samples), ([64, 64, 1], F::Rgba8Unorm, 0, 1));
        let t = planned("var t: texture_2d_array<u32>;", Some("8x4x3:rgba16uint"), &Fill::Zero).expect("plan").binding;
        assert_eq!((t.size, t.format), ([8, 4, 3], F::Rgba16Uint));
        let t = planned("var t: texture_storage_2d<r32float, write>;", Some("64x32:mip=2"), &Fill::Zero)
            .expect("plan")
            .binding;
        assert_eq!(t.extent(), TextureExtent { width: 16, height: 8, depth_or_layers: 1, mip_level: 2 });
        assert!(t.written());
        let t = planned("var t: texture_cube<f32>;", Some("8x8"), &Fill::Zero).expect("plan").binding;
        assert_eq!(t.size, [8, 8, 6]);
        let t = planned("var t: texture_3d<f32>;", Some("8x8x8:mip=1"), &Fill::Zero).expect("plan").binding;
        assert_eq!(t.extent().depth_or_layers, 4);
    }

    #[test]
    fn fills_give_each_texel_its_index_a_constant_or_an_image() {
        let src = "var t: texture_2d<u32>;";
        let words = |bytes: Vec<u8>| -> Vec<u32> {
            bytes.chunks(4).map(|b| u32::from_le_bytes(b.try_into().expect("word"))).collect()
        };
        let index = planned(src, Some("3x2"), &Fill::Index).expect("plan");
        assert_eq!(words(index.contents), (0..6).flat_map(|i| [i; 4]).collect::<Vec<u32>>());
        let c = planned(src, Some("1x1"), &Fill::Const("1,2,3,4".into())).expect("plan");
        assert_eq!(words(c.contents), [1, 2, 3, 4]);
        let unorm = planned("var t: texture_2d<f32>;", Some("2x1"), &Fill::Const("0.5".into())).expect("plan");
        assert_eq!(unorm.contents, [128; 8]);
        let png = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/textures/gradient_32.png");
        let image = planned("var t: texture_2d<f32>;", Some("32x32"), &Fill::File(png)).expect("plan");
        // Texel (1, 2) of the gradient: (8x, 8y, 8(x^y), 255).
        let at = (2 * 32 + 1) * 4;
        assert_eq!(image.contents[at..at + 4], [8, 16, 24, 255]);
        let floats = planned("var t: texture_2d<f32>;", Some("2x1:rgba32float"), &Fill::Index).expect("plan");
        assert_eq!(floats.contents[16..20], 1.0f32.to_le_bytes());
    }

    #[test]
    fn format_names_are_webgpus() {
        assert_eq!(format_name(F::Rgba8Unorm), "rgba8unorm");
        assert_eq!(parse_format("RG32Float"), Some(F::Rg32Float));
        assert_eq!(storage_format(naga::StorageFormat::Bgra8Unorm), F::Bgra8Unorm);
    }
}
