//! The dialects' crate reaches `todokit_app` through its prelude only: the
//! API a host's own dialect is written in. A path such as
//! `todokit_app::tool::CallContext` outside the tests is a sign that the
//! prelude lacks something a dialect needs (add it there, for hosts too).

use std::path::Path;

use syn::visit::Visit;

/// Every path into `krate` other than `krate::prelude::…` in the non-test
/// code of the Rust files under `dir`, as `file:line: path`. Test code is
/// skipped: items under `#[cfg(test)]`, and files that only tests use
/// (`tests.rs`, `*_tests.rs`, `test_support.rs`, anything in a
/// `*_tests/` folder).
pub fn past_the_prelude(dir: &Path, krate: &str) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    for file in files {
        let source = std::fs::read_to_string(&file)?;
        let parsed = syn::parse_file(&source).map_err(|e| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{}: {e}", file.display()),
            )
        })?;
        let mut visitor = Paths {
            krate,
            found: Vec::new(),
        };
        visitor.visit_file(&parsed);
        let shown = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
        found.extend(
            visitor
                .found
                .into_iter()
                .map(|(line, path)| format!("{shown}:{line}: {path}")),
        );
    }
    Ok(found)
}

fn collect(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if path.is_dir() {
            if !name.ends_with("_tests") {
                collect(&path, out)?;
            }
        } else if name.ends_with(".rs")
            && name != "tests.rs"
            && name != "test_support.rs"
            && !name.ends_with("_tests.rs")
        {
            out.push(path);
        }
    }
    Ok(())
}

struct Paths<'a> {
    krate: &'a str,
    found: Vec<(usize, String)>,
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

impl Paths<'_> {
    fn note(&mut self, segments: Vec<String>, line: usize) {
        if segments.first().is_some_and(|s| s == self.krate)
            && segments.get(1).is_some_and(|s| s != "prelude")
        {
            self.found.push((line, segments.join("::")));
        }
    }
}

/// The paths a `use` tree spells out, each as its segments.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(path) => {
            prefix.push(path.ident.to_string());
            use_paths(&path.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(name) => out.push([prefix.as_slice(), &[name.ident.to_string()]].concat()),
        syn::UseTree::Rename(rename) => out.push([prefix.as_slice(), &[rename.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push([prefix.as_slice(), &["*".to_owned()]].concat()),
        syn::UseTree::Group(group) => group.items.iter().for_each(|item| use_paths(item, prefix, out)),
    }
}

impl<'ast> Visit<'ast> for Paths<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Use(u) => &u.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Struct(s) => &s.attrs,
            syn::Item::Enum(e) => &e.attrs,
            syn::Item::Const(c) => &c.attrs,
            _ => &[],
        };
        if !is_test_only(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        use_paths(&item.tree, &mut Vec::new(), &mut paths);
        let line = item.use_token.span.start().line;
        for path in paths {
            self.note(path, line);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let line = path.segments.first().map_or(0, |s| s.ident.span().start().line);
        self.note(segments, line);
        syn::visit::visit_path(self, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn paths_past_the_prelude_are_found_outside_tests_only() {
        let dir = std::env::temp_dir().join(format!("todokit-dialect-api-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("x_tests")).expect("a temp folder");
        let files = [
            (
                "a.rs",
                "use todokit_app::prelude::*;\nuse todokit_app::{prelude::Todo, tool::CallContext};\n\
                 fn f(_: todokit_app::Outcome) {}\n\
                 #[cfg(test)]\nmod tests { use todokit_app::TodoWriteService; }\n",
            ),
            ("tests.rs", "use todokit_app::turn::TurnPolicy;\n"),
            ("x_tests/b.rs", "use todokit_app::Profile;\n"),
        ];
        for (name, text) in files {
            std::fs::write(dir.join(name), text).expect("a fixture file");
        }
        let actual = past_the_prelude(&dir, "todokit_app").expect("readable");
        let _ = std::fs::remove_dir_all(&dir);
        let expected = vec![
            "a.rs:2: todokit_app::tool::CallContext".to_owned(),
            "a.rs:3: todokit_app::Outcome".to_owned(),
        ];
        assert_eq!(actual, expected);
    }
}
