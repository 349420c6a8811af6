#!/usr/bin/env python3
"""The file-level import graph of a crate's `src/`, read from its `use` trees
and inline `crate::`/`super::` paths (test modules and `*_tests.rs` files
left out), with re-exports in `mod.rs` followed to the file that defines the
name (a `mod.rs`'s own `pub use` lines are its facade, not its imports).

    scripts/imports.py tessera/src                 # circles between files
    scripts/imports.py tessera/src --edges FILE    # what FILE imports
    scripts/imports.py tessera/src --floor openpgp/types --within openpgp

`--floor DIR --within DIR`: every file under the floor may import only files
under the floor or outside `--within` (the modules below it); anything else
is listed and the exit status is 1. Circles are listed with exit status 1
unless all their files share one directory given with `--family` (a kernel
family may call itself back).
"""
import argparse
import os
import re
import sys


def module_of(rel):
    parts = rel[:-3].split("/")
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_tests(src):
    """Drops `#[cfg(test)]` items (an inline `mod tests { ... }` or a `mod x;`)."""
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([a-z]+\))?\s+)?mod\s+\w+\s*([;{])", src):
        if m.start() < i:
            continue
        out.append(src[i:m.start()])
        if m.group(1) == ";":
            i = m.end()
            continue
        depth, j = 1, m.end()
        while j < len(src) and depth:
            depth += {"{": 1, "}": -1}.get(src[j], 0)
            j += 1
        i = j
    out.append(src[i:])
    return "".join(out)


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", "", src, flags=re.S)
    return re.sub(r"//[^\n]*", "", src)


def split_top(s):
    parts, depth, cur = [], 0, ""
    for c in s:
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    if cur.strip():
        parts.append(cur)
    return parts


def expand(tree, prefix=()):
    """`a::{b, c::{d as e}}` -> [(a, b), (a, c, d)]; a trailing `self` names the prefix."""
    tree = re.sub(r"\s+as\s+\w+\s*$", "", tree.strip())
    tree = re.sub(r"\s+as\s+\w+\s*([,}])", r"\1", tree)
    tree = re.sub(r"\s+", "", tree)
    if "{" in tree and tree.endswith("}"):
        head, body = tree.split("{", 1)
        head = tuple(p for p in head.split("::") if p)
        out = []
        for part in split_top(body[:-1]):
            out += expand(part, prefix + head)
        return out
    parts = tuple(p for p in tree.split("::") if p)
    if parts and parts[-1] == "self":
        parts = parts[:-1]
    return [prefix + parts]


class Crate:
    def __init__(self, root):
        self.root = root
        self.files = {}
        for d, _, names in os.walk(root):
            for n in names:
                if n.endswith(".rs") and not n.endswith("_tests.rs") and n != "tests.rs":
                    rel = os.path.relpath(os.path.join(d, n), root)
                    self.files[module_of(rel)] = rel
        self.src = {}
        for mod, rel in self.files.items():
            with open(os.path.join(root, rel)) as f:
                self.src[mod] = strip_comments(strip_tests(f.read()))
        self.reexports = {mod: self._reexports(mod) for mod in self.files}

    def _uses(self, mod):
        out = []
        for m in re.finditer(r"\b(pub(?:\([a-z]+\))?\s+)?use\s+([^;]+);", self.src[mod]):
            for p in expand(m.group(2)):
                out.append((bool(m.group(1)), p))
        return out

    def _reexports(self, mod):
        names = {}
        for public, path in self._uses(mod):
            if public and path and path[-1] != "*":
                names[path[-1]] = path
        return names

    def absolute(self, mod, path):
        """A path as written in `mod` -> a crate-absolute tuple, or None if external."""
        if not path:
            return None
        if path[0] == "crate":
            return path[1:]
        if path[0] == "self":
            return mod + path[1:]
        supers = 0
        while supers < len(path) and path[supers] == "super":
            supers += 1
        if supers:
            return mod[: len(mod) - supers] + path[supers:]
        # a bare path: a child module of this one, else another crate
        return mod + path if mod + path[:1] in self.files else None

    def resolve(self, path, seen=()):
        """The file defining the item a crate-absolute path names."""
        for n in range(len(path), -1, -1):
            head = path[:n]
            if head in self.files:
                rest = path[n:]
                if rest and head in self.reexports and rest[0] in self.reexports[head] and (head, rest[0]) not in seen:
                    target = self.absolute(head, self.reexports[head][rest[0]])
                    if target is not None:
                        return self.resolve(target + rest[1:], seen + ((head, rest[0]),))
                return head
        return None

    def edges(self, mod):
        src = self.src[mod]
        facade = self.files[mod].endswith(("mod.rs", "lib.rs"))
        # a directory module's `pub use` is its facade, not a dependency
        paths = [p for public, p in self._uses(mod) if not (public and facade)]
        body = re.sub(r"\buse\s+[^;]+;", "", src)
        paths += [tuple(m.split("::")) for m in re.findall(r"\b(?:crate|super|self)(?:::\w+)+", body)]
        out = set()
        for p in paths:
            if p and p[-1] == "*":
                p = p[:-1]
            a = self.absolute(mod, p)
            if a is None:
                continue
            f = self.resolve(a)
            if f is not None and f != mod and f != ():
                out.add(f)
        return out


def circles(graph):
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in graph:
        if v not in index:
            visit(v)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src")
    ap.add_argument("--edges")
    ap.add_argument("--floor")
    ap.add_argument("--within")
    ap.add_argument("--family", action="append", default=[])
    args = ap.parse_args()
    crate = Crate(args.src)
    graph = {m: crate.edges(m) for m in crate.files}
    name = lambda m: "/".join(m) or "lib"
    if args.edges:
        mod = module_of(args.edges)
        for t in sorted(graph[mod]):
            print(name(t))
        return 0
    status = 0
    if args.floor:
        floor, within = tuple(args.floor.split("/")), tuple(args.within.split("/"))
        for m in sorted(graph):
            if m[: len(floor)] != floor:
                continue
            for t in sorted(graph[m]):
                if t[: len(within)] == within and t[: len(floor)] != floor and t != within:
                    print(f"{name(m)} imports {name(t)}, above the floor {args.floor}")
                    status = 1
        return status
    family = [tuple(f.split("/")) for f in args.family]
    for comp in circles(graph):
        dirs = {c[:-1] for c in comp}
        if len(dirs) == 1 and next(iter(dirs)) in family:
            continue
        print("circle: " + " -> ".join(name(c) for c in comp))
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
