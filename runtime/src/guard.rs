//! Panics of the libraries wgrace drives, turned into errors.
//!
//! naga and wgpu panic on some shaders they accept (naga's SPIR-V backend,
//! for one, on a pointer to part of a variable passed as an argument). A
//! user must get a message and exit status 2, not a backtrace: [`catch`]
//! runs such a call, keeps the panic hook quiet while it does, and returns
//! what panicked, where.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// Whether this thread is inside [`catch`].
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    /// The source file of the last panic caught on this thread.
    static PANIC_FILE: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// A panic caught by [`catch`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Panic {
    /// The panic's message.
    pub message: String,
    /// The library it came from, from its source file ("naga's SPIR-V
    /// backend", "wgpu", ...), when known.
    pub component: Option<&'static str>,
}

/// Runs `f`, turning a panic inside it into [`Panic`], without the panic
/// hook's output; other threads' panics are reported as before.
///
/// # Errors
/// The [`Panic`] when `f` panicked.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, Panic> {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let file = info.location().map(|l| l.file().to_string());
                PANIC_FILE.with(|f| *f.borrow_mut() = file);
            } else {
                previous(info);
            }
        }));
    });
    let outer = CATCHING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|payload| {
        let message = match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
            (Some(s), _) => (*s).to_string(),
            (_, Some(s)) => s.clone(),
            _ => "a panic without a message".to_string(),
        };
        let file = PANIC_FILE.with(|f| f.borrow_mut().take());
        Panic { message, component: file.as_deref().and_then(component_of) }
    })
}

/// The library a source file belongs to, as a user would name it.
fn component_of(file: &str) -> Option<&'static str> {
    let file = file.replace('\\', "/");
    let crate_dir = |name: &str| file.contains(&format!("/{name}-")) || file.contains(&format!("/{name}/src/"));
    if crate_dir("naga") {
        Some(if file.contains("/back/spv/") {
            "naga's SPIR-V backend"
        } else if file.contains("/front/") {
            "naga's shader reader"
        } else {
            "naga"
        })
    } else if crate_dir("wgpu-hal") || crate_dir("wgpu-core") || crate_dir("wgpu") {
        Some("wgpu")
    } else {
        None
    }
}

/// A library that panicked while compiling a shader ([`crate::Error::Backend`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BackendFailure {
    /// What panicked.
    pub panic: Panic,
    /// Which shader it compiled ("instrumented", "native", a pass's).
    pub shader: String,
    /// The constructs of the user's shader known to cause such a panic, each
    /// with its location and a workaround (empty when none is known).
    pub causes: Vec<String>,
}

impl std::fmt::Display for BackendFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let component = self.panic.component.unwrap_or("the shader compiler (naga or wgpu)");
        write!(f, "{component} failed on the {} shader: it panicked ({})", self.shader, self.panic.message)?;
        if self.causes.is_empty() {
            write!(f, "; the shader uses something it cannot compile. Please report it, with the shader")
        } else {
            self.causes.iter().try_for_each(|cause| write!(f, "\n  {cause}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_its_message_and_the_code_after_runs() {
        let caught = catch(|| -> u32 { panic!("Expression [5] is not cached!") });
        assert_eq!(caught, Err(Panic { message: "Expression [5] is not cached!".into(), component: None }));
        let formatted = catch(|| -> u32 { panic!("{} of {}", 1, 2) });
        assert_eq!(formatted.map_err(|p| p.message), Err("1 of 2".to_string()));
        assert_eq!(catch(|| 7), Ok(7));
    }

    #[test]
    fn components_are_named_from_the_source_file() {
        let registry = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f";
        assert_eq!(
            component_of(&format!("{registry}/naga-30.0.1/src/back/spv/block.rs")),
            Some("naga's SPIR-V backend")
        );
        assert_eq!(
            component_of(&format!("{registry}/naga-30.0.1/src/front/wgsl/mod.rs")),
            Some("naga's shader reader")
        );
        assert_eq!(component_of(&format!("{registry}/wgpu-core-30.0.1/src/device/resource.rs")), Some("wgpu"));
        assert_eq!(component_of("runtime/src/engine.rs"), None);
    }
}
