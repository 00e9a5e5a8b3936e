#!/usr/bin/env python3
"""Reports import circles between the source files of each crate; exits 1 if there is one.

A file imports another when its code names an item that the other file defines: through
`use crate::...`, `super::...`, `self::...` or a child module's name, in a `use` or in an
expression. Re-exports (`pub use`) are followed to the file that defines the item, so a facade
(`lib.rs`, a `mod.rs` that only re-exports) never closes a circle by itself. Test modules count
like the rest: a circle that only the tests close still ties the files together.

Why: the workspace reads from the bottom up (core <- eval <- search <- ...), and so should
each crate, one file building on those below it. A circle makes two files one unit that can be
read, tested or moved only together; this check keeps a new one from creeping in.

    tools/import_circles.py [ROOT]      # ROOT: the repository (default: this script's parent)
    tools/import_circles.py --self-test # finds a circle it is shown, and none where there is none

Circles known and not yet untied are listed in `tools/import_circles.allow`, one a line (its
files, space-separated): such a circle is reported and passes, as long as it holds exactly those
files; one that grows fails, and an entry no longer found is reported so it can be deleted.

The parser is deliberately small (comments and strings blanked, brace-matched inline modules,
`use` trees expanded); it knows nothing of macros that build paths, which this project avoids.
"""

import re
import sys
from pathlib import Path

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
ITEM_KINDS = r"(?:fn|struct|enum|trait|type|const|static|union|mod|macro_rules!)"


def blank_comments_and_strings(text):
    """The text with comments, string and char literals replaced by spaces (lines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 260]) and not re.match(r"\w", text[i - 1:i] or " "):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1]))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{..}') or a lifetime ('a): blank only the former.
            m = re.match(r"'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:i + 12])
            if m:
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use_tree(tree):
    """`a::{b, c::{d as e}, self}` -> ['a::b', 'a::c::d', 'a'] (aliases dropped)."""
    # Aliases go while the spaces around `as` still mark them: with the spaces gone, `as`
    # could not be told from a name's own letters (`crate::tablebase` read as `crate::tableb`).
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)
    m = re.match(r"^(.*?)\{(.*)\}$", tree)
    if not m:
        return [tree.rstrip(":")]
    prefix, inner = m.group(1), m.group(2)
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    paths = []
    for part in filter(None, parts):
        for sub in expand_use_tree(part):
            if sub == "self":
                paths.append(prefix.rstrip(":"))
            else:
                paths.append(prefix + sub)
    return paths


class FileModule:
    """One source file: its module path, child file modules, definitions and path uses."""

    def __init__(self, path, modpath):
        self.path = path
        self.modpath = modpath  # tuple of segments from the crate root
        self.children = {}  # name -> FileModule
        self.text = blank_comments_and_strings(path.read_text(encoding="utf-8"))
        self.defined = set(re.findall(r"\b" + ITEM_KINDS + r"\s+(" + IDENT + ")", self.text))
        self.reexports = {}  # name -> (path segments, inline stack)
        self.globs = []  # (path segments, inline stack) of `pub use x::*`
        self.uses = []  # (path text, line, inline stack, is a use statement)
        self._scan()

    def _scan(self):
        text = self.text
        # Inline modules: the stack of `mod name {` around each offset.
        spans = []
        for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", text):
            depth, j = 1, m.end()
            while j < len(text) and depth:
                depth += text[j] == "{"
                depth -= text[j] == "}"
                j += 1
            spans.append((m.start(), j, m.group(1)))

        def stack_at(offset):
            return tuple(name for s, e, name in spans if s <= offset < e)

        def line_at(offset):
            return text.count("\n", 0, offset) + 1

        covered = []
        for m in re.finditer(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", text):
            covered.append((m.start(), m.end()))
            stack = stack_at(m.start())
            for p in expand_use_tree(m.group(2)):
                p = p.lstrip(":")
                if not p:
                    continue
                if m.group(1):
                    segs = p.split("::")
                    if segs[-1] == "*":
                        self.globs.append((segs[:-1], stack))
                    else:
                        alias = re.search(r"\bas\s+(" + IDENT + r")\s*$", m.group(2))
                        name = segs[-1]
                        single = "{" not in m.group(2)
                        self.reexports[alias.group(1) if alias and single else name] = (segs, stack)
                        self.uses.append((p, line_at(m.start()), stack, "reexport"))
                else:
                    self.uses.append((p, line_at(m.start()), stack, "use"))
        for m in re.finditer(r"(?<![\w$:])(?:crate|super|self|" + IDENT + r")(?:::" + IDENT + r")+", text):
            if any(s <= m.start() < e for s, e in covered):
                continue
            self.uses.append((m.group(0), line_at(m.start()), stack_at(m.start()), "path"))


class Crate:
    def __init__(self, name, root_file):
        self.name = name
        self.files = {}  # modpath -> FileModule
        self.root = self._load(root_file, ())

    def _load(self, path, modpath):
        fm = FileModule(path, modpath)
        self.files[modpath] = fm
        for m in re.finditer(r"(?m)^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", fm.text):
            name = m.group(1)
            if path.name in ("lib.rs", "main.rs", "mod.rs") or path.parent.name == "bin":
                base = path.parent
            else:
                base = path.parent / path.stem
            for cand in (base / (name + ".rs"), base / name / "mod.rs"):
                if cand.exists():
                    fm.children[name] = self._load(cand, modpath + (name,))
                    break
        return fm

    def resolve(self, fm, segs, stack, seen=None):
        """The file that defines the item `segs` names from inside `fm` (inline `stack`)."""
        seen = seen or set()
        segs = list(segs)
        if not segs:
            return None
        head = segs[0]
        if head == "crate":
            base, segs = self.root, segs[1:]
        elif head in ("super", "self"):
            mod = list(fm.modpath) + list(stack)
            file_depth = len(fm.modpath)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    mod.pop() if mod else None
                segs = segs[1:]
            if len(mod) > file_depth:
                return fm  # inside this file's inline modules
            base = self.files.get(tuple(mod))
            if base is None:
                return None
        elif head in fm.children and not stack:
            base = fm
        else:
            return None  # another crate, std, a local name
        return self.walk(base, segs, seen)

    def walk(self, base, segs, seen):
        cur = base
        for i, seg in enumerate(segs):
            if seg in cur.children:
                cur = cur.children[seg]
                continue
            key = (cur.modpath, seg)
            if key in seen:
                return cur
            seen.add(key)
            if seg in cur.reexports and seg not in cur.defined:
                rsegs, rstack = cur.reexports[seg]
                # None: a re-export of another crate's item, no file of this one.
                return self.resolve(cur, rsegs, rstack, seen)
            if seg not in cur.defined:
                for gsegs, gstack in cur.globs:
                    target = self.resolve(cur, gsegs + [seg], gstack, seen)
                    if target is not None and seg in target.defined:
                        return target
            return cur
        return cur

    def edges(self):
        """{(from file, to file): first (line, path)} over every use that leaves its file."""
        found = {}
        for fm in self.files.values():
            for text, line, stack, kind in fm.uses:
                if kind == "reexport":
                    continue  # followed through, not an import of the facade's own
                segs = text.split("::")
                target = self.resolve(fm, segs, stack)
                if target is None or target is fm:
                    continue
                found.setdefault((fm.path, target.path), (line, text))
        return found


def strongly_connected(nodes, succ):
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in succ.get(v, ()):
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
            out.append(comp)

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def crates(root):
    for toml in sorted(root.glob("**/Cargo.toml")):
        rel = toml.relative_to(root)
        if any(part in ("target", "fuzz") or part.startswith(".") for part in rel.parts[:-1]):
            continue
        src = toml.parent / "src"
        roots = [src / "lib.rs", src / "main.rs"] + sorted((src / "bin").glob("*.rs"))
        roots += sorted((toml.parent / "examples").glob("*/main.rs"))
        roots += sorted((toml.parent / "tests").glob("*/main.rs"))
        for r in roots:
            if r.exists():
                yield Crate(str(r.relative_to(root)), r)


def allowed_circles(root):
    allow = root / "tools" / "import_circles.allow"
    if not allow.exists():
        return set()
    lines = allow.read_text(encoding="utf-8").splitlines()
    return {frozenset(line.split()) for line in lines if line.strip() and not line.startswith("#")}


def self_test():
    """A circle through `use crate::`, through `super::` and through a re-export is found; the
    same files importing one way, a child's test module using its parent, and a `use` of a
    module whose name holds `as` (`crate::base`, not an alias), are not."""
    import tempfile

    cases = {
        "circle": {"lib.rs": "mod a;\nmod b;\npub use a::A;\n",
                   "a.rs": "use crate::b::B;\npub struct A(B);\n",
                   "b.rs": "pub struct B;\nfn f(_: crate::A) {}\n"},
        "one way": {"lib.rs": "mod a;\nmod b;\npub use a::A;\n",
                    "a.rs": "use crate::b::B;\npub struct A(B);\n",
                    "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"},
        "mod.rs": {"lib.rs": "mod p;\n",
                   "p/mod.rs": "mod q;\npub struct R;\nfn f() { q::g(); }\n",
                   "p/q.rs": "pub fn g() -> super::R { super::R }\n"},
        "as in a name": {"lib.rs": "mod a;\nmod base;\nfn f() { a::g(); }\n",
                         "a.rs": "use crate::base;\nuse crate::base::B as C;\npub fn g() -> C { base::B }\n",
                         "base.rs": "pub struct B;\n"},
    }
    expected = {"circle": 1, "one way": 0, "mod.rs": 1, "as in a name": 0}
    for name, files in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            for rel, text in files.items():
                path = Path(tmp, "src", rel)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            crate = Crate("test", Path(tmp, "src", "lib.rs"))
            succ = {}
            for a, b in crate.edges():
                succ.setdefault(a, []).append(b)
            found = [c for c in strongly_connected([f.path for f in crate.files.values()], succ) if len(c) > 1]
            if len(found) != expected[name]:
                print(f"import_circles self-test {name!r}: {len(found)} circle(s), expected {expected[name]}")
                return 1
    print("import_circles self-test: ok")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    allowed = allowed_circles(root)
    seen_allowed = set()
    circles = 0
    checked = 0
    for crate in crates(root):
        checked += 1
        edges = crate.edges()
        succ = {}
        for a, b in edges:
            succ.setdefault(a, []).append(b)
        for comp in strongly_connected([f.path for f in crate.files.values()], succ):
            if len(comp) < 2:
                continue
            names = sorted(str(p.relative_to(root)) for p in comp)
            if frozenset(names) in allowed:
                seen_allowed.add(frozenset(names))
                print(f"known import circle (tools/import_circles.allow) in {crate.name}: " + " <-> ".join(names))
                continue
            circles += 1
            print(f"import circle in {crate.name}: " + " <-> ".join(names))
            members = set(comp)
            for (a, b), (line, text) in sorted(edges.items()):
                if a in members and b in members:
                    print(f"    {a.relative_to(root)}:{line} uses {b.relative_to(root)} ({text})")
    for gone in allowed - seen_allowed:
        print("no longer a circle, delete its line from tools/import_circles.allow: " + " ".join(sorted(gone)))
    if circles:
        print(f"{circles} import circle(s): move what both files need into a module below them.")
        return 1
    print(f"import_circles: no circle in {checked} crate roots")
    return 0


if __name__ == "__main__":
    sys.exit(main())
