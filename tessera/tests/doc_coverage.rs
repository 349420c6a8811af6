//! Every public item of `tessera::openpgp`, and `fpe::FF3` / `fpe::FF3_1`,
//! has a runnable example in its doc comment (issue 15). `cargo test --doc`
//! runs the examples; this test checks that they exist.
//!
//! A scan of the sources, formatted by rustfmt, without a parser: modules,
//! `pub` items at a module's top level, `pub fn` and `pub const` in inherent
//! `impl` blocks of public types, `pub use` re-exports (an item of a private
//! module is public when re-exported from a public one), items written by `macro_rules!`
//! templates (documented in the template), and items named by a macro
//! invocation right after their doc comment (`ff3_type!`). Items with
//! `#[doc(hidden)]` are not public. An example is a fenced block that
//! rustdoc runs: no `ignore`, `no_run`, `text` or `compile_fail`.
//!
//! `cargo test -p tessera --test doc_coverage -- --nocapture` prints every
//! item found, with or without an example.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Modules public only so that the fuzz harness reaches them: their items
/// are crate-internal API, without examples (issue 15). Items re-exported
/// from them elsewhere (`openpgp::SessionKey`) still count.
const INTERNAL: &[&str] = &["openpgp::packet", "openpgp::seipd", "openpgp::skesk", "openpgp::s2k", "openpgp::pkesk"];

/// An item found in the sources.
struct Item {
    /// The module that defines it.
    module: String,
    /// `fn`, `struct`, ..., `method`, `mod`.
    kind: &'static str,
    /// Its name; `Type::name` for methods, `macro!::name` for template items.
    name: String,
    /// For methods: the type of the `impl`.
    owner: Option<String>,
    /// Declared `pub` (not `pub(crate)`) and not `#[doc(hidden)]`.
    declared_pub: bool,
    has_example: bool,
    at: String,
}

/// `pub use path::{A, B as C};` in `module`: (target module, name, alias).
struct Reexport {
    module: String,
    target: String,
    name: String,
    alias: String,
}

#[derive(Default)]
struct Scan {
    items: Vec<Item>,
    reexports: Vec<Reexport>,
}

/// What a block opened at some indentation holds.
enum Ctx {
    /// The body of a module (items one level in).
    Module,
    /// An inherent `impl` of the named type.
    Impl(String),
    /// A `macro_rules!` body: every `pub` item in it is a template.
    Macro(String),
}

/// Whether a doc comment (its raw lines) holds a fenced block that rustdoc runs.
fn has_runnable_example(doc: &str) -> bool {
    let mut open = false;
    for (i, _) in doc.match_indices("```") {
        let info: String =
            doc[i + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == ',' || *c == '_').collect();
        if !open && !info.split(',').any(|w| matches!(w, "ignore" | "no_run" | "text" | "compile_fail" | "console")) {
            return true;
        }
        open = !open;
    }
    false
}

/// The doc comment and attributes right above line `i` (stops at a blank line
/// or the end of the previous item).
fn preamble(lines: &[&str], i: usize) -> String {
    let mut out = Vec::new();
    for line in lines[..i].iter().rev() {
        let t = line.trim();
        let attr = t.starts_with("///") || t.starts_with("#[") || t.starts_with("$(#[");
        if !attr && (t.is_empty() || t.ends_with(';') || t.ends_with('{') || t.ends_with('}')) {
            break;
        }
        out.push(t);
    }
    out.reverse();
    out.join("\n")
}

/// Parses `pub [const|async|unsafe] KIND NAME`; `None` for anything else.
fn pub_item(t: &str) -> Option<(&'static str, String)> {
    let mut words = t.strip_prefix("pub ")?.split_whitespace().peekable();
    while words.next_if(|w| matches!(*w, "async" | "unsafe" | "extern" | "\"C\"")).is_some() {}
    let mut kw = words.next()?;
    if kw == "const" && words.peek() == Some(&"fn") {
        kw = words.next()?;
    }
    let kind =
        ["fn", "struct", "enum", "trait", "type", "const", "static", "union", "mod"].into_iter().find(|k| *k == kw)?;
    let name: String = words.next()?.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
    Some((kind, name))
}

/// The type of an inherent `impl` header (`impl<W: Write> Encryptor<W> {`), `None` for trait impls.
fn impl_type(header: &str) -> Option<String> {
    let head = header.split('{').next()?;
    if head.contains(" for ") {
        return None;
    }
    let mut rest = head.trim().strip_prefix("impl")?;
    if rest.starts_with('<') {
        let mut depth = 0;
        let (end, _) = rest.char_indices().find(|&(_, c)| {
            depth += match c {
                '<' => 1,
                '>' => -1,
                _ => 0,
            };
            depth == 0
        })?;
        rest = &rest[end + 1..];
    }
    let path: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || "_:$".contains(*c)).collect();
    Some(path.rsplit("::").next()?.to_string())
}

/// Splits `a::{b::C, D as E}` into (path segments, name, alias) leaves.
fn use_leaves(tree: &str, prefix: &[String], out: &mut Vec<(Vec<String>, String, String)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let mut base = prefix.to_vec();
        base.extend(tree[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string));
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    if !inner[start..i].trim().is_empty() {
                        use_leaves(&inner[start..i], &base, out);
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let (path, alias) = tree.split_once(" as ").unwrap_or((tree, ""));
    let mut segs: Vec<String> = prefix.to_vec();
    segs.extend(path.split("::").map(|s| s.trim().to_string()));
    let name = segs.pop().unwrap_or_default();
    let alias = if alias.is_empty() { name.clone() } else { alias.trim().to_string() };
    out.push((segs, name, alias));
}

/// Resolves `super::x`, `crate::x`, `self::x` or a child `x` from `module`.
fn resolve(module: &str, segs: &[String]) -> String {
    let mut path: Vec<&str> = module.split("::").collect();
    for (i, s) in segs.iter().enumerate() {
        match s.as_str() {
            "super" => {
                path.pop();
            }
            "self" => {}
            "crate" if i == 0 => path.clear(),
            s => path.push(s),
        }
    }
    path.join("::")
}

/// A block being read: the indentation of its opening line (`-4` for a
/// file), the module it belongs to, and what it is.
struct Block {
    indent: isize,
    module: String,
    ctx: Ctx,
}

/// Where an item line is: file, line number, and its doc comment.
struct Here<'a> {
    at: String,
    doc: &'a str,
}

impl Scan {
    /// Scans a module file and, recursively, the module files it declares.
    fn file(&mut self, file: &Path, module: &str, dir: &Path) {
        let text = fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let lines: Vec<&str> = text.lines().collect();
        let module_doc = lines.iter().take_while(|l| l.starts_with("//!")).copied().collect::<Vec<_>>().join("\n");
        if let Some(m) = self.items.iter_mut().find(|it| it.kind == "mod" && path_of(it) == module) {
            m.has_example |= has_runnable_example(&module_doc);
        }
        let mut stack = vec![Block { indent: -4, module: module.to_string(), ctx: Ctx::Module }];
        let mut i = 0;
        while i < lines.len() {
            let t = lines[i].trim();
            let indent = (lines[i].len() - lines[i].trim_start().len()) as isize;
            let top = stack.last().expect("the file's block");
            if t.starts_with('}') && top.indent == indent {
                stack.pop();
                i += 1;
                continue;
            }
            let doc = preamble(&lines, i);
            let here = Here { at: format!("{}:{}", file.display(), i + 1), doc: &doc };
            let m = top.module.clone();
            match &top.ctx {
                Ctx::Macro(name) => {
                    // Items whose doc the invocation passes in (`$(#[$doc])*`) count there.
                    if let Some((kind, item)) = pub_item(t).filter(|_| !doc.contains("$(#[$")) {
                        self.push(&m, kind, format!("{name}!::{item}"), None, true, &here);
                    }
                }
                _ if indent != top.indent + 4 => {}
                Ctx::Module => {
                    i = self.module_line(&lines, i, &m, dir, &mut stack, &here);
                    continue;
                }
                Ctx::Impl(ty) => {
                    if let Some((kind @ ("fn" | "const"), name)) = pub_item(t) {
                        let (ty, kind) = (ty.clone(), if kind == "fn" { "method" } else { "const" });
                        self.push(&m, kind, format!("{ty}::{name}"), Some(ty), true, &here);
                    }
                }
            }
            i += 1;
        }
    }

    /// One line at a module's top level; returns the next line to read.
    fn module_line(
        &mut self,
        lines: &[&str],
        i: usize,
        module: &str,
        dir: &Path,
        stack: &mut Vec<Block>,
        here: &Here<'_>,
    ) -> usize {
        let t = lines[i].trim();
        let indent = (lines[i].len() - lines[i].trim_start().len()) as isize;
        let block = |ctx| Block { indent, module: module.to_string(), ctx };
        let ends_with = |from: usize, c: char| (from..lines.len()).find(|&j| lines[j].trim_end().ends_with(c));
        if let Some(name) = t.strip_prefix("macro_rules! ").and_then(|r| r.strip_suffix(" {")) {
            stack.push(block(Ctx::Macro(name.to_string())));
        } else if t.starts_with("impl ") || t.starts_with("impl<") {
            let end = ends_with(i, '{').unwrap_or(i);
            match impl_type(&lines[i..=end].join(" ")) {
                Some(ty) => stack.push(block(Ctx::Impl(ty))),
                // A trait impl: nothing in it is an item of its own; skip to its end.
                None => {
                    let close = format!("{}}}", " ".repeat(indent as usize));
                    return (end + 1..lines.len())
                        .find(|&j| lines[j].starts_with(&close))
                        .map_or(lines.len(), |c| c + 1);
                }
            }
            return end + 1;
        } else if let Some(use_tree) = t.strip_prefix("pub use ") {
            let end = ends_with(i, ';').unwrap_or(i);
            let tree: String = std::iter::once(use_tree).chain(lines[i + 1..=end].iter().copied()).collect();
            let mut leaves = Vec::new();
            use_leaves(tree.trim_end_matches(';'), &[], &mut leaves);
            for (segs, name, alias) in leaves {
                let target = resolve(module, &segs);
                self.reexports.push(Reexport { module: module.to_string(), target, name, alias });
            }
            return end + 1;
        } else if t.ends_with("!(") && !t.contains(' ') {
            return self.invocation(lines, i, module, &here.at);
        } else if let Some((kind, name)) = pub_item(t).or_else(|| private_mod(t)) {
            if kind != "mod" {
                self.push(module, kind, name, None, true, here);
            } else if !here.doc.contains("#[cfg(test)]") {
                let child = format!("{module}::{name}");
                let public = t.starts_with("pub ") && !INTERNAL.contains(&child.as_str());
                self.push(module, "mod", name.clone(), None, public, here);
                if t.ends_with('{') {
                    stack.push(Block { indent, module: child, ctx: Ctx::Module });
                } else {
                    let files = [
                        (dir.join(format!("{name}.rs")), dir.join(&name)),
                        (dir.join(&name).join("mod.rs"), dir.join(&name)),
                    ];
                    let (f, d) = files
                        .into_iter()
                        .find(|(f, _)| f.exists())
                        .unwrap_or_else(|| panic!("{}: no file for mod {name}", here.at));
                    self.file(&f, &child, &d);
                }
            }
        }
        i + 1
    }

    /// A macro invocation at a module's top level (`ff3_type!(`): a doc
    /// comment documents the item named on the line right after it.
    fn invocation(&mut self, lines: &[&str], i: usize, module: &str, at: &str) -> usize {
        let close = (i + 1..lines.len()).find(|&j| lines[j].starts_with(");")).unwrap_or(lines.len());
        for j in i + 1..close {
            let name = lines[j].trim().trim_end_matches(',');
            if lines[j - 1].trim().starts_with("///") && !name.starts_with("///") {
                let doc = preamble(lines, j);
                let at = format!("{}:{}", at.rsplit_once(':').map_or(at, |(f, _)| f), j + 1);
                self.push(module, "struct", name.to_string(), None, true, &Here { at, doc: &doc });
            }
        }
        close
    }

    /// Records an item; `public` unless `pub(crate)`, a private module or internal.
    fn push(
        &mut self,
        module: &str,
        kind: &'static str,
        name: String,
        owner: Option<String>,
        public: bool,
        here: &Here<'_>,
    ) {
        let declared_pub = public && !here.doc.contains("#[doc(hidden)]");
        let has_example = has_runnable_example(here.doc);
        self.items.push(Item {
            module: module.to_string(),
            kind,
            name,
            owner,
            declared_pub,
            has_example,
            at: here.at.clone(),
        });
    }
    /// The items a user can name: (module, name) pairs, through `pub mod`
    /// chains and `pub use` re-exports, to a fixpoint.
    fn reachable(&self) -> BTreeSet<(String, String)> {
        let mut reach: BTreeSet<(String, String)> = BTreeSet::new();
        let public_module = |reach: &BTreeSet<(String, String)>, m: &str| {
            m == "openpgp" || m == "fpe" || {
                let (parent, name) = m.rsplit_once("::").unwrap_or(("", m));
                reach.contains(&(parent.to_string(), name.to_string()))
            }
        };
        loop {
            let before = reach.len();
            for it in self.items.iter().filter(|it| it.declared_pub && it.owner.is_none()) {
                if public_module(&reach, &it.module) {
                    reach.insert((it.module.clone(), it.name.clone()));
                }
            }
            for r in &self.reexports {
                if public_module(&reach, &r.module) || reach.contains(&(r.module.clone(), r.alias.clone())) {
                    reach.insert((r.target.clone(), r.name.clone()));
                }
            }
            if reach.len() == before {
                return reach;
            }
        }
    }

    /// The public items in scope: (item, has example).
    fn public_items(&self) -> Vec<&Item> {
        let reach = self.reachable();
        let types: BTreeSet<&str> = self
            .items
            .iter()
            .filter(|it| it.owner.is_none() && reach.contains(&(it.module.clone(), it.name.clone())))
            .map(|it| it.name.as_str())
            .collect();
        let in_scope = |m: &str| m.starts_with("openpgp") || m == "fpe::ff3";
        self.items
            .iter()
            .filter(|it| in_scope(&it.module) && it.declared_pub)
            .filter(|it| match &it.owner {
                Some(ty) => types.contains(ty.as_str()),
                None => it.name.contains('!') || reach.contains(&(it.module.clone(), it.name.clone())),
            })
            .collect()
    }
}

/// `mod x;` / `pub(crate) mod x;` (private modules hold re-exported items).
fn private_mod(t: &str) -> Option<(&'static str, String)> {
    let rest = t.strip_prefix("mod ").or_else(|| t.strip_prefix("pub(crate) mod "))?;
    Some(("mod", rest.trim_end_matches([';', '{', ' ']).to_string()))
}

fn path_of(it: &Item) -> String {
    format!("{}::{}", it.module, it.name)
}

/// Whether every item of `module` is a constant: a module of named numbers
/// (`sig::subpacket::kind`, `key::flags`), whose example shows them in use.
fn constants_only(items: &[Item], module: &str) -> bool {
    items.iter().filter(|it| it.module == module).all(|it| it.kind == "const")
}

#[test]
fn every_public_item_has_an_example() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut scan = Scan::default();
    for root in ["openpgp", "fpe"] {
        scan.file(&src.join(root).join("mod.rs"), root, &src.join(root));
    }
    // A macro that declares modules (`internal_mods!` in openpgp: the engine
    // modules, public only with the `internals` feature) is not an item.
    let mut public = scan.public_items();
    public.retain(|it| !(it.kind == "mod" && it.name.ends_with("::$name")));
    let covered = |it: &Item| {
        it.has_example
            || (it.kind == "const"
                && constants_only(&scan.items, &it.module)
                && scan.items.iter().any(|m| m.kind == "mod" && path_of(m) == it.module && m.has_example))
    };
    let mut missing = Vec::new();
    for it in &public {
        let ok = covered(it);
        println!("{} {:<7} {}::{}  ({})", if ok { "ok  " } else { "MISS" }, it.kind, it.module, it.name, it.at);
        if !ok {
            missing.push(format!("{}::{}", it.module, it.name));
        }
    }
    println!("{} of {} public items have an example", public.len() - missing.len(), public.len());
    assert!(public.len() > 300, "the scan found only {} public items: is it broken?", public.len());
    assert!(missing.is_empty(), "public items without a runnable example:\n{missing:#?}");
}
