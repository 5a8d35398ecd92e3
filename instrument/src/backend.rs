//! Constructs that the backends wgrace hands shaders to cannot compile,
//! found in the module so that a failure can name them.

use naga::{AddressSpace, Expression, Function, Handle, Module, Span, Statement};

/// Where `module` passes a pointer to part of a function or private
/// variable (a struct member, an array element, a matrix column: `&v.m`,
/// `&v[i]`) as a function argument. naga 30's SPIR-V backend panics on it
/// ("Expression [..] is not cached!"); the spans are the arguments'.
pub fn pointer_to_part_arguments(module: &Module) -> Vec<Span> {
    let mut spans = Vec::new();
    let functions = module.functions.iter().map(|(_, f)| f).chain(module.entry_points.iter().map(|ep| &ep.function));
    for function in functions {
        crate::blocks::for_each_statement(&function.body, &mut |statement| {
            if let Statement::Call { arguments, .. } = statement {
                for &argument in arguments {
                    if points_into_part_of_local(module, function, argument) {
                        spans.push(function.expressions.get_span(argument));
                    }
                }
            }
        });
    }
    spans
}

/// Whether `pointer` is an access into a function or private variable (not
/// the variable itself).
fn points_into_part_of_local(module: &Module, function: &Function, pointer: Handle<Expression>) -> bool {
    let mut at = pointer;
    let mut parts = 0;
    loop {
        match function.expressions[at] {
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => {
                parts += 1;
                at = base;
            }
            Expression::LocalVariable(_) => return parts > 0,
            Expression::GlobalVariable(g) => {
                return parts > 0 && module.global_variables[g].space == AddressSpace::Private;
            }
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(source: &str) -> Vec<String> {
        let module = naga::front::wgsl::parse_str(source).expect("parses");
        pointer_to_part_arguments(&module)
            .into_iter()
            .map(|s| source[s.to_range().expect("span")].to_string())
            .collect()
    }

    #[test]
    fn pointers_to_members_elements_and_columns_of_locals_are_found() {
        let source = "
            struct S { a: u32, b: array<u32, 4> }
            var<private> p: S;
            fn bump(x: ptr<function, u32>) { *x += 1u; }
            fn bump_private(x: ptr<private, u32>) { *x += 1u; }
            fn bump_column(x: ptr<function, vec2<f32>>) { *x += vec2(1.0); }
            fn whole(x: ptr<function, S>) { (*x).a = 0u; }
            @compute @workgroup_size(1) fn main() {
                var s: S;
                var m: mat2x2<f32>;
                var n: u32;
                bump(&s.a);
                bump(&s.b[2]);
                bump_private(&p.a);
                bump_column(&m[1]);
                bump(&n);
                whole(&s);
            }";
        // naga's span of `&v.m` is that of `v.m`.
        assert_eq!(spans(source), ["s.a", "s.b[2]", "p.a", "m[1]"]);
    }
}
