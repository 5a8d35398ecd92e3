//! What the checks of atomic memory share (`scope`, `atomic-plain`): their
//! records, whose earlier access is a witness the state kept (its site, or
//! `0x3fff` when it was not written yet) and whose code (0 or 1) says
//! whether the later access wrote, become races of their class.

use wgrace_report::{DetectedBy, Lockstep, Race, RaceClass, RaceExample};

use super::data_race::{self, RawAccess, UNKNOWN_SITE};
use super::{DecodeContext, Record};
use crate::vars;

/// The race of one record of class `class`, with `texts` (explanation,
/// hint).
///
/// # Errors
/// A message when the record names sites the shader does not have, or has
/// no example.
pub(crate) fn decode(
    class: RaceClass,
    record: &Record,
    ctx: &DecodeContext<'_>,
    texts: (String, String),
) -> Result<Race, String> {
    let [lo_site, hi_site] = record.ids;
    let var = [hi_site, lo_site]
        .iter()
        .find_map(|&s| ctx.sites.get(s).filter(|_| s != UNKNOWN_SITE))
        .and_then(|s| ctx.vars.get(s.var as usize))
        .ok_or_else(|| {
            format!("a {} record names sites {lo_site} and {hi_site}, which the shader does not have", class.as_str())
        })?;
    let g = &ctx.module.global_variables[var.handle];
    let later_wrote = record.code == 1;
    let mut sides = None;
    let mut examples = Vec::new();
    for example in &record.examples {
        let bits = example[3];
        let lo = RawAccess { site: lo_site, workgroup: example[0], invocation: bits & 0x3ff, write: false };
        let hi = RawAccess { site: hi_site, workgroup: example[1], invocation: (bits >> 10) & 0x3ff, write: false };
        let (earlier, later) = if bits & (1 << 20) != 0 { (lo, hi) } else { (hi, lo) };
        let earlier = data_race::access(RawAccess { write: bits & (1 << 21) != 0, ..earlier }, ctx);
        let later = data_race::access(RawAccess { write: later_wrote, ..later }, ctx);
        let (first, second) = if data_race::order_key(&later) < data_race::order_key(&earlier) {
            (later, earlier)
        } else {
            (earlier, later)
        };
        let byte_offset = u64::from(example[2]) * u64::from(var.unit);
        let element = vars::element_path(ctx.module, g.ty, byte_offset, &var.name);
        examples.push(RaceExample { element, byte_offset, first: first.invocation, second: second.invocation });
        sides.get_or_insert((first, second));
    }
    let (first, second) = sides.ok_or_else(|| format!("a {} record without its example", class.as_str()))?;
    let first_example = &examples[0];
    let (explanation, hint) = texts;
    Ok(Race {
        class,
        kind: data_race::kind(&first, &second),
        memory: data_race::memory(var, first_example.byte_offset, first_example.element.clone()),
        first,
        second,
        occurrences: record.count,
        lockstep: Lockstep::default(),
        examples,
        explanation,
        hint,
        detected_by: DetectedBy::Runtime,
        spread: Some(data_race::spread(record, var, ctx)),
    })
}
