//! The test binary itself, run again as a child process by a test that
//! needs processes of its own (writers racing across processes).

/// The name `--exact` takes for test `name` of the module whose
/// `module_path!()` is `module`: the path within the binary, without the
/// binary's own name in front.
pub fn exact_name(module: &str, name: &str) -> String {
    let within = module.split_once("::").map_or(module, |(_, rest)| rest);
    format!("{within}::{name}")
}
