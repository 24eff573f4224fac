//! Which module of a crate uses which: every `use` and every path that
//! starts at `crate`, `super` or `self`, resolved through re-exports to the
//! module that defines the item, outside test code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path from the crate root, `""` for the root itself
/// (`"tool::command"`).
pub type ModulePath = String;

/// The modules of one crate and the modules each of them uses.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ModuleGraph {
    /// Every module with the modules it uses (itself excluded).
    pub uses: BTreeMap<ModulePath, BTreeSet<ModulePath>>,
}

/// What one module holds, as far as resolving paths needs.
#[derive(Debug, Default)]
struct Module {
    children: BTreeSet<String>,
    /// Items it defines (functions, types, traits, constants, macros).
    items: BTreeSet<String>,
    /// Names it brings in with `use`: name → absolute path.
    imports: BTreeMap<String, Vec<String>>,
    /// Paths it refers to, absolute where they could be made so.
    referenced: Vec<Vec<String>>,
    /// Paths that start at a plain name (`child::item`), resolved once the
    /// module's children are known.
    relative: Vec<Vec<String>>,
    /// Names it brings in with `use` from another crate.
    external: BTreeSet<String>,
}

/// Why a crate could not be read.
#[derive(Debug)]
pub struct ReadError(pub String);

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads the crate whose root file is `root` (`src/lib.rs`, `src/main.rs`)
/// and returns its module graph.
pub fn read_crate(root: &Path) -> Result<ModuleGraph, ReadError> {
    Ok(resolve(&read_modules(root)?))
}

fn read_modules(root: &Path) -> Result<BTreeMap<ModulePath, Module>, ReadError> {
    let mut modules = BTreeMap::new();
    let dir = root.parent().unwrap_or(Path::new("."));
    read_file(root, dir, &[], &mut modules)?;
    Ok(modules)
}

/// Every path by which a module other than the root reaches a name the
/// crate root only re-exports (`crate::Todo`, or `super::Todo` from a
/// child of the root), as `module -> crate::path`: such a module should
/// take the name from the module (or crate) that defines it, so the root
/// is no hub every module passes through.
pub fn through_the_root(root: &Path) -> Result<Vec<String>, ReadError> {
    let modules = read_modules(root)?;
    let Some(top) = modules.get("") else {
        return Ok(Vec::new());
    };
    let mut found = BTreeSet::new();
    for (key, module) in modules.iter().filter(|(key, _)| !key.is_empty()) {
        for path in &module.referenced {
            let Some(first) = path.first() else {
                continue;
            };
            let defined_here = top.children.contains(first) || top.items.contains(first);
            let reexported = top.imports.contains_key(first) || top.external.contains(first);
            if reexported && !defined_here {
                found.insert(format!("{key} -> crate::{}", path.join("::")));
            }
        }
    }
    Ok(found.into_iter().collect())
}

fn read_file(
    file: &Path,
    dir: &Path,
    path: &[String],
    modules: &mut BTreeMap<ModulePath, Module>,
) -> Result<(), ReadError> {
    let text = std::fs::read_to_string(file).map_err(|e| ReadError(format!("{}: {e}", file.display())))?;
    let parsed = syn::parse_file(&text).map_err(|e| ReadError(format!("{}: {e}", file.display())))?;
    read_items(&parsed.items, file, dir, path, modules)
}

fn read_items(
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    path: &[String],
    modules: &mut BTreeMap<ModulePath, Module>,
) -> Result<(), ReadError> {
    let key = path.join("::");
    modules.entry(key.clone()).or_default();
    for item in items {
        if is_test_only(item_attrs(item)) {
            continue;
        }
        match item {
            syn::Item::Mod(module) => {
                let name = module.ident.to_string();
                let mut child = path.to_vec();
                child.push(name.clone());
                if let Some(entry) = modules.get_mut(&key) {
                    entry.children.insert(name.clone());
                }
                match &module.content {
                    Some((_, inner)) => read_items(inner, file, &dir.join(&name), &child, modules)?,
                    None => {
                        let (child_file, child_dir) = child_location(file, dir, &name);
                        read_file(&child_file, &child_dir, &child, modules)?;
                    }
                }
            }
            syn::Item::Use(use_item) => {
                let mut flat = Vec::new();
                flatten_use(&use_item.tree, Vec::new(), &mut flat);
                if let Some(entry) = modules.get_mut(&key) {
                    for (name, target) in flat {
                        let absolute = absolute(path, &target);
                        match absolute {
                            Some(absolute) => {
                                entry.referenced.push(absolute.clone());
                                if name != "*" && name != "_" {
                                    entry.imports.insert(name, absolute);
                                }
                            }
                            None if name != "*" && name != "_" => {
                                entry.external.insert(name);
                            }
                            None => {}
                        }
                    }
                }
            }
            other => {
                if let Some(name) = item_name(other)
                    && let Some(entry) = modules.get_mut(&key)
                {
                    entry.items.insert(name);
                }
                let mut collector = PathCollector::default();
                collector.visit_item(other);
                if let Some(entry) = modules.get_mut(&key) {
                    for found in collector.paths {
                        match absolute(path, &found) {
                            Some(absolute) => entry.referenced.push(absolute),
                            None if found.len() > 1 => entry.relative.push(found),
                            None => {}
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// Where `mod name;` declared in `file` lives: `dir/name.rs` or
/// `dir/name/mod.rs`, where `dir` is the folder `file`'s children live in.
fn child_location(file: &Path, dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    // lib.rs, main.rs and mod.rs keep their children beside them; `a.rs`
    // keeps them in `a/`.
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let base = if matches!(stem, "lib" | "main" | "mod") || file.parent() != Some(dir) {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    let flat = base.join(format!("{name}.rs"));
    if flat.exists() {
        (flat, base.join(name))
    } else {
        (base.join(name).join("mod.rs"), base.join(name))
    }
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::ExternCrate(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::ForeignMod(i) => &i.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::TraitAlias(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// `#[cfg(test)]`: test code may use its parent freely.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<syn::Ident>().is_ok_and(|ident| ident == "test")
    })
}

fn item_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Every (name it is known by, path) a `use` tree brings in.
fn flatten_use(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<(String, Vec<String>)>) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut next = prefix;
            next.push(p.ident.to_string());
            flatten_use(&p.tree, next, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut full = prefix;
            if name == "self" {
                let last = full.last().cloned().unwrap_or_default();
                out.push((last, full));
            } else {
                full.push(name.clone());
                out.push((name, full));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix;
            full.push(r.ident.to_string());
            out.push((r.rename.to_string(), full));
        }
        syn::UseTree::Glob(_) => out.push(("*".to_owned(), prefix)),
        syn::UseTree::Group(g) => {
            for inner in &g.items {
                flatten_use(inner, prefix.clone(), out);
            }
        }
    }
}

/// `target` as a path from the crate root, when it starts at `crate`,
/// `super` or `self` (other paths name external crates or local names the
/// module's own `use` items already account for).
fn absolute(module: &[String], target: &[String]) -> Option<Vec<String>> {
    let first = target.first()?;
    match first.as_str() {
        "crate" | "$crate" => Some(target[1..].to_vec()),
        "self" => Some(module.iter().chain(&target[1..]).cloned().collect()),
        "super" => {
            let mut base = module.to_vec();
            let mut rest = target;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop()?;
                rest = &rest[1..];
            }
            Some(base.into_iter().chain(rest.iter().cloned()).collect())
        }
        _ => None,
    }
}

/// Every path written in an item's code.
#[derive(Default)]
struct PathCollector {
    paths: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for PathCollector {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.paths
            .push(path.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        // A `use` inside a function body.
        let mut flat = Vec::new();
        flatten_use(&item.tree, Vec::new(), &mut flat);
        self.paths.extend(flat.into_iter().map(|(_, path)| path));
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Modules are read on their own.
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // A macro's arguments are tokens to syn; most macros (`format!`,
        // `vec!`, `assert_eq!`) take expressions separated by commas,
        // so their paths are read as such. Others are left as tokens.
        let parser = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(arguments) = mac.parse_body_with(parser) {
            for argument in &arguments {
                syn::visit::visit_expr(self, argument);
            }
        }
        syn::visit::visit_macro(self, mac);
    }

    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {
        // `pub(super)` names who may see an item, not what it uses.
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Attribute paths (`derive`, `serde`) name no module of the crate.
    }
}

/// Resolves every referenced path to the module that defines what it
/// names.
fn resolve(modules: &BTreeMap<ModulePath, Module>) -> ModuleGraph {
    let mut uses: BTreeMap<ModulePath, BTreeSet<ModulePath>> = BTreeMap::new();
    for (key, module) in modules {
        let entry = uses.entry(key.clone()).or_default();
        // `child::item` names a child module of this one.
        let prefix: Vec<String> = key
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        let relative = module
            .relative
            .iter()
            .filter(|path| module.children.contains(&path[0]))
            .map(|path| prefix.iter().chain(path).cloned().collect::<Vec<_>>());
        for path in module.referenced.iter().cloned().chain(relative) {
            let path = &path;
            if let Some(target) = defining_module(modules, path, 0)
                && &target != key
            {
                entry.insert(target);
            }
        }
    }
    ModuleGraph { uses }
}

/// The module that defines the item `path` names, following re-exports;
/// for a path that names a module, that module.
fn defining_module(
    modules: &BTreeMap<ModulePath, Module>,
    path: &[String],
    depth: usize,
) -> Option<ModulePath> {
    if depth > 16 {
        return None;
    }
    let mut at: Vec<String> = Vec::new();
    for (i, segment) in path.iter().enumerate() {
        let key = at.join("::");
        let module = modules.get(&key)?;
        if module.children.contains(segment) {
            at.push(segment.clone());
            continue;
        }
        if module.items.contains(segment) {
            return Some(key);
        }
        if let Some(target) = module.imports.get(segment) {
            let mut next = target.clone();
            next.extend(path[i + 1..].iter().cloned());
            return defining_module(modules, &next, depth + 1).or(Some(key));
        }
        // A macro exported at the crate root, an enum variant, an
        // associated item: the module reached so far is where it lives.
        return macro_home(modules, segment).or(Some(key));
    }
    Some(at.join("::"))
}

/// The module that defines `#[macro_export]` macro `name`, which its users
/// reach as `crate::name`.
fn macro_home(modules: &BTreeMap<ModulePath, Module>, name: &str) -> Option<ModulePath> {
    modules
        .iter()
        .find(|(_, module)| module.items.contains(name))
        .map(|(key, _)| key.clone())
}

impl ModuleGraph {
    /// Every cycle: each set of two or more modules that reach each other
    /// through uses, in a stable order.
    pub fn cycles(&self) -> Vec<Vec<ModulePath>> {
        let nodes: Vec<&ModulePath> = self.uses.keys().collect();
        let reach = |from: &ModulePath| -> BTreeSet<ModulePath> {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.clone()];
            while let Some(next) = stack.pop() {
                for target in self.uses.get(&next).into_iter().flatten() {
                    if seen.insert(target.clone()) {
                        stack.push(target.clone());
                    }
                }
            }
            seen
        };
        let reached: BTreeMap<&ModulePath, BTreeSet<ModulePath>> =
            nodes.iter().map(|n| (*n, reach(n))).collect();
        let mut cycles: Vec<Vec<ModulePath>> = Vec::new();
        let mut placed = BTreeSet::new();
        for node in &nodes {
            if placed.contains(*node) || !reached[node].contains(*node) {
                continue;
            }
            let members: Vec<ModulePath> = nodes
                .iter()
                .filter(|other| reached[node].contains(**other) && reached[**other].contains(*node))
                .map(|other| (*other).clone())
                .collect();
            placed.extend(members.iter().cloned());
            cycles.push(members);
        }
        cycles
    }

    /// The uses inside one cycle, `a -> b`, so a failure says which use to
    /// remove.
    pub fn edges_within(&self, members: &[ModulePath]) -> Vec<String> {
        let inside: BTreeSet<&ModulePath> = members.iter().collect();
        let mut out = Vec::new();
        for from in members {
            for to in self.uses.get(from).into_iter().flatten() {
                if inside.contains(to) {
                    out.push(format!("{} -> {}", display(from), display(to)));
                }
            }
        }
        out
    }
}

fn display(module: &str) -> &str {
    if module.is_empty() { "crate" } else { module }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// A crate written to a fresh folder from (file, text) pairs.
    fn crate_of(files: &[(&str, &str)]) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "todokit-module-graph-{}-{}",
            std::process::id(),
            files.iter().map(|(_, t)| t.len()).sum::<usize>()
        ));
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().expect("a file has a folder")).expect("temp folder");
            std::fs::write(&path, text).expect("temp file");
        }
        dir.join("lib.rs")
    }

    #[test]
    fn uses_through_re_exports_and_macro_declared_modules_close_a_cycle_and_test_code_does_not() {
        let root = crate_of(&[
            (
                "lib.rs",
                "mod a;\nmod b;\nmod list;\nmod c;\npub use a::A;\nfn f() { c::g() }\n",
            ),
            ("c.rs", "pub fn g() { let _ = crate::f; }\n"),
            (
                "a.rs",
                "pub struct A(crate::b::B);\n#[cfg(test)]\nmod tests { use crate::list::one::One; }\n",
            ),
            ("b.rs", "pub struct B;\nfn f(_: crate::A) {}\n"),
            ("list/mod.rs", "pub mod one;\n"),
            ("list/one.rs", "pub(super) struct One;\nuse crate::A;\n"),
        ]);
        let graph = read_crate(&root).expect("the fixture parses");
        let actual = (
            graph.cycles(),
            graph.edges_within(&["a".to_owned(), "b".to_owned()]),
            graph.edges_within(&["".to_owned(), "c".to_owned()]),
            graph.uses.get("list::one").cloned(),
        );
        let expected = (
            vec![
                vec!["".to_owned(), "c".to_owned()],
                vec!["a".to_owned(), "b".to_owned()],
            ],
            vec!["a -> b".to_owned(), "b -> a".to_owned()],
            vec!["crate -> c".to_owned(), "c -> crate".to_owned()],
            Some(BTreeSet::from(["a".to_owned()])),
        );
        assert_eq!(actual, expected);
    }

    #[test]
    fn a_path_inside_a_macros_arguments_is_a_use() {
        let root = crate_of(&[
            (
                "lib.rs",
                "mod gate;
mod reader;
pub use reader::MAX;
",
            ),
            (
                "reader.rs",
                "pub const MAX: usize = 1;
fn f() { crate::gate::g(); }
",
            ),
            (
                "gate.rs",
                "pub fn g() -> String { format!(\"at most {}\", super::MAX) }\n",
            ),
        ]);
        let graph = read_crate(&root).expect("the fixture parses");
        let actual = (
            graph.cycles(),
            through_the_root(&root).expect("the fixture parses"),
        );
        let expected = (
            vec![vec!["gate".to_owned(), "reader".to_owned()]],
            vec!["gate -> crate::MAX".to_owned()],
        );
        assert_eq!(actual, expected);
    }
}
