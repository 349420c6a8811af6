//! Every public item of `tessera::openpgp`, and `fpe::FF3` / `fpe::FF3_1`,
//! has a runnable example in its doc comment (issue 15). `cargo test --doc`
//! runs the examples; this test checks that they exist.
//!
//! A scan of the sources, formatted by rustfmt, without a parser: modules,
//! `pub` items at a module's top level, `pub fn` in inherent `impl` blocks of
//! public types, `pub use` re-exports (an item of a private module is public
//! when re-exported from a public one), items written by `macro_rules!`
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
    while let Some(w) = words.next_if(|w| matches!(*w, "async" | "unsafe" | "extern" | "\"C\"")) {
        let _ = w;
    }
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
    let mut rest = header.trim().strip_prefix("impl")?;
    if rest.starts_with('<') {
        let mut depth = 0;
        let end = rest.char_indices().find(|&(_, c)| {
            depth += match c {
                '<' => 1,
                '>' => -1,
                _ => 0,
            };
            depth == 0
        })?;
        rest = &rest[end.0 + 1..];
    }
    let path: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || "_:$".contains(*c)).collect();
    let after = rest.trim_start()[path.len()..].split(['{', '\n']).next().unwrap_or("");
    if header.contains(" for ") && !after.contains(" for ") && !path.is_empty() {
        // `impl Trait for Type`: the path read is the trait's.
        return None;
    }
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
                    if let Some(("fn", name)) = pub_item(t) {
                        let ty = ty.clone();
                        self.push(&m, "method", format!("{ty}::{name}"), Some(ty), true, &here);
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
    let public = scan.public_items();
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
    let new: Vec<&String> = missing.iter().filter(|m| !NOT_YET.contains(&m.as_str())).collect();
    let done: Vec<&&str> = NOT_YET.iter().filter(|m| !missing.contains(&m.to_string())).collect();
    assert!(new.is_empty(), "public items without a runnable example:\n{new:#?}");
    assert!(done.is_empty(), "these have an example now; remove them from NOT_YET:\n{done:#?}");
}

/// Public items still without an example; the list only shrinks.
const NOT_YET: &[&str] = &[
    "openpgp::armor",
    "openpgp::armor::reader::ArmorReader",
    "openpgp::armor::reader::ArmorReader::new",
    "openpgp::armor::reader::ArmorReader::kind",
    "openpgp::armor::reader::ArmorReader::into_inner",
    "openpgp::armor::writer::ArmorWriter",
    "openpgp::armor::writer::ArmorWriter::new",
    "openpgp::armor::writer::ArmorWriter::finish",
    "openpgp::armor::MESSAGE",
    "openpgp::armor::SIGNATURE",
    "openpgp::armor::Crc24",
    "openpgp::armor::Crc24::update",
    "openpgp::armor::Crc24::value",
    "openpgp::armor::is_armored",
    "openpgp::crypto::algs::PublicKeyAlg::from_id",
    "openpgp::crypto::algs::PublicKeyAlg::id",
    "openpgp::crypto::algs::PublicKeyAlg::can_sign",
    "openpgp::crypto::algs::PublicKeyAlg::can_encrypt",
    "openpgp::crypto::algs::PublicKeyAlg::is_rsa",
    "openpgp::crypto::algs::Curve::from_oid",
    "openpgp::crypto::algs::Curve::oid",
    "openpgp::crypto::algs::Curve::field_len",
    "openpgp::crypto::algs::Curve::name",
    "openpgp::crypto::algs::Curve::is_nist",
    "openpgp::crypto::algs::HashAlg::from_id",
    "openpgp::crypto::algs::HashAlg::id",
    "openpgp::crypto::algs::HashAlg::digest_len",
    "openpgp::crypto::algs::HashAlg::v6_salt_len",
    "openpgp::crypto::algs::HashAlg::name",
    "openpgp::crypto::hash::Hasher::new",
    "openpgp::crypto::hash::Hasher::alg",
    "openpgp::crypto::hash::Hasher::update",
    "openpgp::crypto::hash::Hasher::finalize",
    "openpgp::crypto::hash::Hasher::digest",
    "openpgp::crypto::keys::KeyType",
    "openpgp::crypto::kw",
    "openpgp::crypto::kw::wrap",
    "openpgp::crypto::kw::unwrap",
    "openpgp::crypto::mpi::Mpi::new",
    "openpgp::crypto::mpi::Mpi::parse",
    "openpgp::crypto::mpi::Mpi::serialize",
    "openpgp::crypto::mpi::Mpi::as_bytes",
    "openpgp::crypto::mpi::Mpi::to_padded",
    "openpgp::crypto::mpi::Mpi::bits",
    "openpgp::crypto::mpi::Mpi::serialized_len",
    "openpgp::crypto::payload::PkeskVersion",
    "openpgp::crypto::payload::PkeskVersion::id",
    "openpgp::crypto::payload::PkeskPayload::parse",
    "openpgp::crypto::payload::PkeskPayload::serialize",
    "openpgp::crypto::payload::PkeskPayload::alg",
    "openpgp::crypto::public::PublicMaterial::parse",
    "openpgp::crypto::public::PublicMaterial::serialize",
    "openpgp::crypto::public::PublicMaterial::to_vec",
    "openpgp::crypto::public::PublicMaterial::matches",
    "openpgp::crypto::public::PublicMaterial::alg",
    "openpgp::crypto::public::PublicMaterial::curve",
    "openpgp::crypto::public::PublicMaterial::bits",
    "openpgp::crypto::secret::SecretMaterial::parse",
    "openpgp::crypto::secret::SecretMaterial::serialize",
    "openpgp::crypto::secret::SecretMaterial::to_vec",
    "openpgp::crypto::secret::SecretMaterial::check",
    "openpgp::crypto::session::decrypt_session_key",
    "openpgp::crypto::sigmat::SigMaterial::parse",
    "openpgp::crypto::sigmat::SigMaterial::serialize",
    "openpgp::crypto::sigmat::SigMaterial::to_vec",
    "openpgp::decrypt::DecryptOptions",
    "openpgp::decrypt::SeipdVersion",
    "openpgp::decrypt::Decryptor::new",
    "openpgp::decrypt::Decryptor::with_options",
    "openpgp::decrypt::Decryptor::literal",
    "openpgp::decrypt::Decryptor::session_key",
    "openpgp::decrypt::Decryptor::seipd_version",
    "openpgp::encrypt::EMPTY_PASSWORD",
    "openpgp::encrypt::Profile",
    "openpgp::encrypt::S2kChoice",
    "openpgp::encrypt::S2kKind",
    "openpgp::encrypt::EncryptOptions",
    "openpgp::encrypt::Encryptor",
    "openpgp::encrypt::Encryptor::new",
    "openpgp::encrypt::Encryptor::finish",
    "openpgp::error::Error",
    "openpgp::error::Error::from_io",
    "openpgp::key::cert::key_tag",
    "openpgp::key::cert::key_tag::SECRET_KEY",
    "openpgp::key::cert::key_tag::PUBLIC_KEY",
    "openpgp::key::cert::key_tag::SECRET_SUBKEY",
    "openpgp::key::cert::key_tag::TRUST",
    "openpgp::key::cert::key_tag::USER_ID",
    "openpgp::key::cert::key_tag::PUBLIC_SUBKEY",
    "openpgp::key::cert::key_tag::USER_ATTRIBUTE",
    "openpgp::key::cert::CertKey",
    "openpgp::key::cert::CertKey::public",
    "openpgp::key::cert::CertKey::secret",
    "openpgp::key::cert::CertKey::secret_mut",
    "openpgp::key::cert::UserId",
    "openpgp::key::cert::Subkey",
    "openpgp::key::cert::Cert::read_all",
    "openpgp::key::cert::Cert::read_one",
    "openpgp::key::cert::Cert::from_bytes",
    "openpgp::key::cert::Cert::fingerprint",
    "openpgp::key::cert::Cert::version",
    "openpgp::key::cert::Cert::is_secret",
    "openpgp::key::cert::Cert::keys",
    "openpgp::key::cert::Cert::to_public",
    "openpgp::key::cert::Cert::to_bytes",
    "openpgp::key::cert::Cert::write_armored",
    "openpgp::key::checks::MAX_CHECKS_PER_VALIDATION",
    "openpgp::key::error::KeyError",
    "openpgp::key::generate::KeyProfile",
    "openpgp::key::generate::GenerateOptions",
    "openpgp::key::generate::Cert::lock",
    "openpgp::key::generate::Cert::unlock",
    "openpgp::key::packet::Fingerprint::as_bytes",
    "openpgp::key::packet::Fingerprint::version",
    "openpgp::key::packet::Fingerprint::key_id",
    "openpgp::key::packet::Fingerprint::from_versioned",
    "openpgp::key::packet::Fingerprint::write_versioned",
    "openpgp::key::packet::Fingerprint::to_hex",
    "openpgp::key::packet::KeyId",
    "openpgp::key::packet::KeyVersion",
    "openpgp::key::packet::KeyVersion::id",
    "openpgp::key::packet::PublicKey::new",
    "openpgp::key::packet::PublicKey::parse",
    "openpgp::key::packet::PublicKey::parse_packet",
    "openpgp::key::packet::PublicKey::version",
    "openpgp::key::packet::PublicKey::created",
    "openpgp::key::packet::PublicKey::alg",
    "openpgp::key::packet::PublicKey::material",
    "openpgp::key::packet::PublicKey::body",
    "openpgp::key::packet::PublicKey::fingerprint",
    "openpgp::key::packet::PublicKey::key_id",
    "openpgp::key::packet::PublicKey::hash_header",
    "openpgp::key::recipients::EncryptionPlan::new",
    "openpgp::key::secret::KEY_UNLOCK_LIMITS",
    "openpgp::key::secret::SecretPart",
    "openpgp::key::secret::Locked",
    "openpgp::key::secret::SecretKey::parse",
    "openpgp::key::secret::SecretKey::from_parts",
    "openpgp::key::secret::SecretKey::write",
    "openpgp::key::secret::SecretKey::public",
    "openpgp::key::secret::SecretKey::is_subkey",
    "openpgp::key::secret::SecretKey::is_locked",
    "openpgp::key::secret::SecretKey::secret",
    "openpgp::key::secret::SecretKey::unlock",
    "openpgp::key::secret::SecretKey::decrypt_in_place",
    "openpgp::key::secret::SecretKey::lock",
    "openpgp::key::secret::SecretKey::change_password",
    "openpgp::key::session::EncryptionPlan::pkesks",
    "openpgp::key::session::decrypt_pkesks",
    "openpgp::key::validity::flags",
    "openpgp::key::validity::flags::CERTIFY",
    "openpgp::key::validity::flags::SIGN",
    "openpgp::key::validity::flags::ENCRYPT_COMMS",
    "openpgp::key::validity::flags::ENCRYPT_STORAGE",
    "openpgp::key::validity::flags::ENCRYPT",
    "openpgp::key::validity::features",
    "openpgp::key::validity::features::SEIPD_V1",
    "openpgp::key::validity::features::SEIPD_V2",
    "openpgp::key::validity::ValidKey",
    "openpgp::key::validity::ValidKey::public",
    "openpgp::key::validity::Cert::validate",
    "openpgp::key::validity::ValidCert::encryption_keys",
    "openpgp::key::validity::ValidCert::require_encryption_keys",
    "openpgp::key::validity::ValidCert::signing_keys",
    "openpgp::key::validity::ValidCert::features",
    "openpgp::names::named!::NAMES",
    "openpgp::names::named!::name",
    "openpgp::plain::LiteralInfo",
    "openpgp::seipd::MAX_CHUNK_OCTET",
    "openpgp::sig::builder::SignatureBuilder::new",
    "openpgp::sig::builder::SignatureBuilder::hash",
    "openpgp::sig::builder::SignatureBuilder::salt",
    "openpgp::sig::builder::SignatureBuilder::subpacket",
    "openpgp::sig::builder::SignatureBuilder::unhashed_subpacket",
    "openpgp::sig::builder::SignatureBuilder::sign_with",
    "openpgp::sig::builder::SignatureBuilder::sign_direct_key",
    "openpgp::sig::builder::SignatureBuilder::sign_certification",
    "openpgp::sig::builder::SignatureBuilder::sign_subkey_binding",
    "openpgp::sig::builder::SignatureBuilder::sign_primary_key_binding",
    "openpgp::sig::check",
    "openpgp::sig::check::Outcome",
    "openpgp::sig::check::Outcome::is_good",
    "openpgp::sig::check::SigResult",
    "openpgp::sig::check::SigResult::is_good",
    "openpgp::sig::check::check_document",
    "openpgp::sig::check::choose_hash",
    "openpgp::sig::cleartext::MAX_CLEARTEXT",
    "openpgp::sig::cleartext::ClearSigner",
    "openpgp::sig::cleartext::ClearSigner::new",
    "openpgp::sig::cleartext::ClearSigner::finish",
    "openpgp::sig::cleartext::is_cleartext",
    "openpgp::sig::cleartext::read_cleartext",
    "openpgp::sig::document::SigningKey",
    "openpgp::sig::document::SigningKey::from_cert",
    "openpgp::sig::document::Signer::new",
    "openpgp::sig::document::Signer::sig_type",
    "openpgp::sig::document::Signer::update",
    "openpgp::sig::document::Signer::finish",
    "openpgp::sig::document::Verifier",
    "openpgp::sig::document::Verifier::new",
    "openpgp::sig::document::Verifier::update",
    "openpgp::sig::document::Verifier::finish",
    "openpgp::sig::document::read_signatures",
    "openpgp::sig::document::write_signatures",
    "openpgp::sig::hashing",
    "openpgp::sig::hashing::HashedFields",
    "openpgp::sig::hashing::Signature::hashed_fields",
    "openpgp::sig::hashing::begin",
    "openpgp::sig::hashing::finish",
    "openpgp::sig::hashing::direct_key_digest",
    "openpgp::sig::hashing::certification_digest",
    "openpgp::sig::hashing::binding_digest",
    "openpgp::sig::hashing::DocumentHasher::new",
    "openpgp::sig::hashing::DocumentHasher::update",
    "openpgp::sig::hashing::DocumentHasher::finish",
    "openpgp::sig::inline::InlineSigner",
    "openpgp::sig::inline::InlineSigner::new",
    "openpgp::sig::inline::InlineSigner::finish",
    "openpgp::sig::inline::InlineVerifier",
    "openpgp::sig::inline::InlineVerifier::new",
    "openpgp::sig::inline::InlineVerifier::literal",
    "openpgp::sig::inline::InlineVerifier::results",
    "openpgp::sig::inline::InlineVerifier::verify_to",
    "openpgp::sig::ops::OnePassSig",
    "openpgp::sig::ops::OpsIssuer",
    "openpgp::sig::ops::OnePassSig::for_key",
    "openpgp::sig::ops::OnePassSig::parse",
    "openpgp::sig::ops::OnePassSig::to_bytes",
    "openpgp::sig::ops::OnePassSig::matches",
    "openpgp::sig::packet::SigType",
    "openpgp::sig::packet::SigType::from_id",
    "openpgp::sig::packet::SigType::id",
    "openpgp::sig::packet::Signature::parse",
    "openpgp::sig::packet::Signature::write",
    "openpgp::sig::packet::Signature::to_bytes",
    "openpgp::sig::packet::Signature::version",
    "openpgp::sig::packet::Signature::sig_type",
    "openpgp::sig::packet::Signature::pk_alg",
    "openpgp::sig::packet::Signature::hash_alg",
    "openpgp::sig::packet::Signature::salt",
    "openpgp::sig::packet::Signature::digest_prefix",
    "openpgp::sig::packet::Signature::material",
    "openpgp::sig::packet::Signature::hashed",
    "openpgp::sig::packet::Signature::unhashed",
    "openpgp::sig::packet::Signature::created",
    "openpgp::sig::packet::Signature::sig_expiration",
    "openpgp::sig::packet::Signature::key_expiration",
    "openpgp::sig::packet::Signature::key_flags",
    "openpgp::sig::packet::Signature::features",
    "openpgp::sig::packet::Signature::preferred_symmetric",
    "openpgp::sig::packet::Signature::preferred_aead",
    "openpgp::sig::packet::Signature::preferred_hash",
    "openpgp::sig::packet::Signature::primary_user_id",
    "openpgp::sig::packet::Signature::revocation_reason",
    "openpgp::sig::packet::Signature::intended_recipients",
    "openpgp::sig::packet::Signature::signers_user_id",
    "openpgp::sig::packet::Signature::embedded_signatures",
    "openpgp::sig::packet::Signature::issuer_fingerprints",
    "openpgp::sig::packet::Signature::issuer_key_ids",
    "openpgp::sig::packet::Signature::may_be_issued_by",
    "openpgp::sig::packet::Signature::unknown_critical",
    "openpgp::sig::subpacket",
    "openpgp::sig::subpacket::kind",
    "openpgp::sig::subpacket::kind::CREATION_TIME",
    "openpgp::sig::subpacket::kind::SIG_EXPIRATION",
    "openpgp::sig::subpacket::kind::EXPORTABLE",
    "openpgp::sig::subpacket::kind::REVOCABLE",
    "openpgp::sig::subpacket::kind::KEY_EXPIRATION",
    "openpgp::sig::subpacket::kind::PREFERRED_SYMMETRIC",
    "openpgp::sig::subpacket::kind::ISSUER",
    "openpgp::sig::subpacket::kind::NOTATION",
    "openpgp::sig::subpacket::kind::PREFERRED_HASH",
    "openpgp::sig::subpacket::kind::PREFERRED_COMPRESSION",
    "openpgp::sig::subpacket::kind::KEYSERVER_PREFS",
    "openpgp::sig::subpacket::kind::PREFERRED_KEYSERVER",
    "openpgp::sig::subpacket::kind::PRIMARY_USER_ID",
    "openpgp::sig::subpacket::kind::POLICY_URI",
    "openpgp::sig::subpacket::kind::KEY_FLAGS",
    "openpgp::sig::subpacket::kind::SIGNERS_USER_ID",
    "openpgp::sig::subpacket::kind::REVOCATION_REASON",
    "openpgp::sig::subpacket::kind::FEATURES",
    "openpgp::sig::subpacket::kind::EMBEDDED_SIGNATURE",
    "openpgp::sig::subpacket::kind::ISSUER_FINGERPRINT",
    "openpgp::sig::subpacket::kind::INTENDED_RECIPIENT",
    "openpgp::sig::subpacket::kind::PREFERRED_AEAD",
    "openpgp::sig::subpacket::SubpacketValue",
    "openpgp::sig::subpacket::Subpacket::new",
    "openpgp::sig::subpacket::Subpacket::critical",
    "openpgp::sig::subpacket::Subpacket::kind",
    "openpgp::sig::subpacket::Subpacket::is_unknown_critical",
    "openpgp::sig::subpacket::Subpacket::write",
    "openpgp::sig::subpacket::parse_area",
    "openpgp::sig::subpacket::write_area",
    "openpgp::sig::verify::SHA1_BINDING_CUTOFF",
    "openpgp::sig::verify::Signature::verify_digest",
    "openpgp::sig::verify::Signature::verify_direct_key",
    "openpgp::sig::verify::Signature::verify_certification",
    "openpgp::sig::verify::Signature::verify_subkey_binding",
    "openpgp::sig::verify::Signature::verify_primary_key_binding",
    "openpgp::sig::verify::Signature::is_live_at",
    "openpgp::signcrypt::SigningEncryptor",
    "openpgp::signcrypt::SigningEncryptor::new",
    "openpgp::signcrypt::SigningEncryptor::finish",
    "openpgp::signcrypt::Verified",
    "openpgp::signcrypt::Verified::good",
    "openpgp::signcrypt::VerifyingDecryptor",
    "openpgp::signcrypt::VerifyingDecryptor::new",
    "openpgp::signcrypt::VerifyingDecryptor::session_key",
    "openpgp::signcrypt::VerifyingDecryptor::seipd_version",
    "openpgp::signcrypt::VerifyingDecryptor::finish",
    "openpgp::signcrypt::VerifyingDecryptor::finish_results",
    "openpgp::skesk::SessionKey",
    "openpgp::Result",
    "openpgp::SymAlg",
    "openpgp::SymAlg::from_id",
    "openpgp::SymAlg::id",
    "openpgp::SymAlg::key_len",
];
