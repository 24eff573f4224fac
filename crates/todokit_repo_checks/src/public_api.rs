//! A crate's public surface as its sources state it: every item declared
//! `pub` in a module a host can reach from the crate root, and every name
//! a reachable `pub use` exports, one line each (`fn todokit::app::x`,
//! `use todokit::app::TodoWriteService`), with the features that gate it
//! and a mark on what the docs hide. A test holds it equal to a committed
//! file, so a change to what a semver release must keep shows in review,
//! as `cargo public-api` shows it, without a nightly toolchain. Methods
//! and fields are not listed: a type's name stands for it.

use std::path::Path;

use crate::module_graph::ReadError;

/// Every public item reachable from the crate root `root` (its `lib.rs`),
/// named from `crate_name`, in the order the sources give them.
pub fn public_items(root: &Path, crate_name: &str) -> Result<Vec<String>, ReadError> {
    let mut found = Vec::new();
    let dir = root.parent().unwrap_or(Path::new("."));
    read_file(root, dir, crate_name, "", &mut found)?;
    Ok(found)
}

fn read_file(
    file: &Path,
    dir: &Path,
    path: &str,
    gate: &str,
    found: &mut Vec<String>,
) -> Result<(), ReadError> {
    let text = std::fs::read_to_string(file).map_err(|e| ReadError(format!("{}: {e}", file.display())))?;
    let parsed = syn::parse_file(&text).map_err(|e| ReadError(format!("{}: {e}", file.display())))?;
    read_items(&parsed.items, file, dir, path, gate, found)
}

fn read_items(
    items: &[syn::Item],
    file: &Path,
    dir: &Path,
    path: &str,
    gate: &str,
    found: &mut Vec<String>,
) -> Result<(), ReadError> {
    for item in items {
        let attrs = attributes(item);
        let Some(gate) = gated(attrs, gate) else {
            continue;
        };
        let hidden = if is_hidden(attrs) { " (hidden)" } else { "" };
        match item {
            syn::Item::Mod(module) if is_public(&module.vis) => {
                let name = module.ident.to_string();
                let inner = format!("{path}::{name}");
                found.push(format!("mod {inner}{gate}{hidden}"));
                match &module.content {
                    Some((_, content)) => read_items(content, file, &dir.join(&name), &inner, &gate, found)?,
                    None => {
                        let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
                        let base = if matches!(stem, "lib" | "main" | "mod") {
                            dir.to_path_buf()
                        } else {
                            dir.join(stem)
                        };
                        let flat = base.join(format!("{name}.rs"));
                        let (child, child_dir) = if flat.is_file() {
                            (flat, base.clone())
                        } else {
                            (base.join(&name).join("mod.rs"), base.join(&name))
                        };
                        read_file(&child, &child_dir, &inner, &gate, found)?;
                    }
                }
            }
            syn::Item::Use(used) if is_public(&used.vis) => {
                let mut names = Vec::new();
                exported(&used.tree, &mut names);
                found.extend(
                    names
                        .into_iter()
                        .map(|name| format!("use {path}::{name}{gate}{hidden}")),
                );
            }
            syn::Item::Macro(mac) if attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
                if let Some(name) = &mac.ident {
                    found.push(format!("macro {}::{name}{gate}{hidden}", crate_root(path)));
                }
            }
            other => {
                if let Some((kind, name)) = declared(other) {
                    found.push(format!("{kind} {path}::{name}{gate}{hidden}"));
                }
            }
        }
    }
    Ok(())
}

fn crate_root(path: &str) -> &str {
    path.split("::").next().unwrap_or(path)
}

/// The kind and name of a `pub` item that is not a module or a `use`.
fn declared(item: &syn::Item) -> Option<(&'static str, String)> {
    let (kind, vis, name) = match item {
        syn::Item::Const(i) => ("const", &i.vis, i.ident.to_string()),
        syn::Item::Enum(i) => ("enum", &i.vis, i.ident.to_string()),
        syn::Item::Fn(i) => ("fn", &i.vis, i.sig.ident.to_string()),
        syn::Item::Static(i) => ("static", &i.vis, i.ident.to_string()),
        syn::Item::Struct(i) => ("struct", &i.vis, i.ident.to_string()),
        syn::Item::Trait(i) => ("trait", &i.vis, i.ident.to_string()),
        syn::Item::Type(i) => ("type", &i.vis, i.ident.to_string()),
        syn::Item::Union(i) => ("union", &i.vis, i.ident.to_string()),
        _ => return None,
    };
    is_public(vis).then_some((kind, name))
}

/// The names a `use` tree exports: a rename's new name, a glob as `*`
/// after its path.
fn exported(tree: &syn::UseTree, names: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => match &*p.tree {
            syn::UseTree::Glob(_) => names.push(format!("{}::*", p.ident)),
            inner => exported(inner, names),
        },
        syn::UseTree::Name(n) if n.ident != "self" => names.push(n.ident.to_string()),
        syn::UseTree::Name(_) => {}
        syn::UseTree::Rename(r) => names.push(r.rename.to_string()),
        syn::UseTree::Glob(_) => names.push("*".to_owned()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| exported(t, names)),
    }
}

fn is_public(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

fn attributes(item: &syn::Item) -> &[syn::Attribute] {
    match item {
        syn::Item::Const(i) => &i.attrs,
        syn::Item::Enum(i) => &i.attrs,
        syn::Item::Fn(i) => &i.attrs,
        syn::Item::Macro(i) => &i.attrs,
        syn::Item::Mod(i) => &i.attrs,
        syn::Item::Static(i) => &i.attrs,
        syn::Item::Struct(i) => &i.attrs,
        syn::Item::Trait(i) => &i.attrs,
        syn::Item::Type(i) => &i.attrs,
        syn::Item::Union(i) => &i.attrs,
        syn::Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// The gate an item's `#[cfg(...)]` adds to its module's (`gate`), as
/// ` [cfg: …]`; `None` for test-only code.
fn gated(attrs: &[syn::Attribute], gate: &str) -> Option<String> {
    let mut gate = gate.to_owned();
    for attr in attrs.iter().filter(|a| a.path().is_ident("cfg")) {
        let condition = match &attr.meta {
            syn::Meta::List(list) => list.tokens.to_string(),
            _ => continue,
        };
        if condition == "test" {
            return None;
        }
        gate.push_str(&format!(" [cfg: {condition}]"));
    }
    Some(gate)
}

fn is_hidden(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| match &a.meta {
        syn::Meta::List(list) => list.path.is_ident("doc") && list.tokens.to_string() == "hidden",
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn the_surface_is_what_a_host_reaches_by_name() {
        let dir = tempfile::tempdir().expect("a folder");
        let lib = dir.path().join("lib.rs");
        std::fs::write(
            &lib,
            "pub mod a;\nmod hidden_inside;\n#[doc(hidden)]\npub mod internal { pub use crate::hidden_inside::x; }\n\
             pub use a::{A as B, c::*};\npub(crate) fn no() {}\n#[cfg(feature = \"sql\")]\npub fn yes() {}\n\
             #[cfg(test)]\npub fn test_only() {}\n#[macro_export]\nmacro_rules! m { () => {} }\n",
        )
        .expect("lib.rs");
        std::fs::write(
            dir.path().join("a.rs"),
            "pub struct A;\npub mod c;\nstruct Private;\n",
        )
        .expect("a.rs");
        std::fs::create_dir_all(dir.path().join("a")).expect("a/");
        std::fs::write(dir.path().join("a/c.rs"), "pub const C: u8 = 1;\n").expect("a/c.rs");
        std::fs::write(dir.path().join("hidden_inside.rs"), "pub fn x() {}\n").expect("hidden_inside.rs");
        let actual = public_items(&lib, "k").expect("the fixture parses");
        let expected = vec![
            "mod k::a",
            "struct k::a::A",
            "mod k::a::c",
            "const k::a::c::C",
            "mod k::internal (hidden)",
            "use k::internal::x",
            "use k::B",
            "use k::c::*",
            "fn k::yes [cfg: feature = \"sql\"]",
            "macro k::m",
        ];
        assert_eq!(actual, expected);
    }
}
