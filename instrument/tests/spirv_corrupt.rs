//! Corrupt SPIR-V never panics: thousands of deterministic mutations of a
//! real module (bits flipped, words replaced, the module cut short) are each
//! read or refused with a message, and what is read is validated and
//! instrumented or refused.

use naga::valid::Capabilities;
use wgrace_instrument::{InstrumentOptions, Shader, instrument, prepare};

const MODULE: &[u8] = include_bytes!("../../samples/corpus/spirv/shared_reduction.spv");

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn mutated_modules_are_read_or_refused_without_panicking() {
    let words: Vec<u32> = MODULE.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut rng = Rng(0x5eed);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut mutated = words.clone();
        for _ in 0..1 + rng.below(4) {
            // Leave the header alone most of the time, to get past it.
            let at = 5 + rng.below(mutated.len() - 5);
            match rng.below(4) {
                0 => mutated[at] ^= 1 << rng.below(32),
                1 => mutated[at] = rng.next() as u32,
                2 => mutated[at] = (mutated[at] & 0xffff) | (rng.below(8) as u32) << 16,
                _ => mutated[at] = (mutated[at] & 0xffff_0000) | rng.below(400) as u32,
            }
        }
        if rng.below(8) == 0 {
            mutated.truncate(5 + rng.below(mutated.len() - 5));
        }
        let bytes: Vec<u8> = mutated.iter().flat_map(|w| w.to_le_bytes()).collect();
        match Shader::from_spirv("mutated.spv", &bytes) {
            Ok(shader) => {
                // Locating every statement naga gave a span must not panic
                // either.
                for ep in &shader.module.entry_points {
                    for (_, span) in ep.function.body.span_iter() {
                        let _ = shader.locate(*span);
                    }
                }
                // What naga accepts goes on to validation and instrumentation,
                // which refuse what they cannot handle.
                if let Ok(prepared) = prepare(&shader, None, &[], Capabilities::all()) {
                    let options = InstrumentOptions::default();
                    let _ = instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options);
                }
                read += 1;
            }
            Err(e) => {
                assert!(e.to_string().starts_with("mutated.spv: invalid SPIR-V: "), "{e}");
                refused += 1;
            }
        }
    }
    // Both outcomes occur: the mutations reach past the first checks.
    assert!(read > 100 && refused > 100, "read {read}, refused {refused}");
}
