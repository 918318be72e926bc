#!/usr/bin/env python3
"""The module graph of each crate's src/, from its `use` lines: no file may import a file that
imports it back (directly or through others), and no module imports through the crate root's
re-exports (`use crate::BoxFuture` instead of `use crate::tool::BoxFuture`).

An edge runs from a file to the file that *defines* what it imports: a path through a `pub use`
re-export is followed to the item's own file, so `use crate::tool::ToolSpec` (re-exported by
tool/mod.rs from tool/spec.rs) is an edge to tool/spec.rs. A `use` of a child module's item
from a mod.rs (`pub use spec::ToolSpec`) is an edge too. `mod` declarations are not edges.

    python3 .ci/module-graph.py            # check, exit 1 with each circle and its names
    python3 .ci/module-graph.py --edges    # print every edge as `from -> to: names`
"""

import re
import sys
from collections import defaultdict
from pathlib import Path

CRATES = ["executor-core/src", "executor-macros/src"]

USE = re.compile(r"\b(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);")
PATH_ATTR = re.compile(r'#\[path\s*=\s*"([^"]+)"\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)')
INLINE = re.compile(r"\b(?:crate|super)(?:::\w+)+")


def strip(source):
    """The code without comments, and with every string and char literal emptied."""
    out, i, n = [], 0, len(source)
    while i < n:
        ch = source[i]
        if source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i == -1 else i
        elif source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif ch == "r" and re.match(r'r#*"', source[i:]) and not (i and (source[i - 1].isalnum() or source[i - 1] == "_")):
            hashes = re.match(r'r(#*)"', source[i:]).group(1)
            end = source.find('"' + hashes, i + len(hashes) + 2)
            out.append('""')
            i = n if end == -1 else end + 1 + len(hashes)
        elif ch == '"':
            i += 1
            while i < n and source[i] != '"':
                i += 2 if source[i] == "\\" else 1
            out.append('""')
            i += 1
        elif ch == "'" and re.match(r"'(\\.[^']*|[^'\\])'", source[i:]):
            m = re.match(r"'(\\.[^']*|[^'\\])'", source[i:])
            out.append("' '")
            i += m.end()
        else:
            out.append(ch)
            i += 1
    return drop_test_modules("".join(out))


def drop_test_modules(code):
    """Without inline `#[cfg(test)] mod … { … }` blocks: tests are not part of the graph."""
    while True:
        m = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", code)
        if not m:
            return code
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[i], 0)
            i += 1
        code = code[: m.start()] + code[i:]


def expand(tree):
    """`a::{b, c::{d, e as f}}` -> [(['a','b'], 'b'), (['a','c','d'], 'd'), (['a','c','e'], 'f')]."""
    tree = " ".join(tree.split())
    out = []

    def walk(prefix, text):
        text = text.strip()
        if not text:
            return
        brace = text.find("{")
        if brace == -1:
            parts = text.split(" as ")
            segs = prefix + [s for s in parts[0].replace(" ", "").split("::") if s]
            alias = parts[1].strip() if len(parts) > 1 else (segs[-1] if segs else "")
            out.append((segs, alias))
            return
        head = [s for s in text[:brace].replace(" ", "").split("::") if s]
        body = text[brace + 1 : text.rfind("}")]
        depth, start = 0, 0
        for i, ch in enumerate(body):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                walk(prefix + head, body[start:i])
                start = i + 1
        walk(prefix + head, body[start:])

    walk([], tree)
    return out


class Crate:
    def __init__(self, src):
        self.src = Path(src)
        self.files = {}  # module path tuple -> Path
        self.reexports = {}  # Path -> {name: absolute segs}
        self.uses = {}  # Path -> [(absolute segs, alias)]
        self.sources = {}
        self._discover((), self.src / "lib.rs")
        for path in self.files.values():
            self._read(path)

    def _discover(self, module, path):
        if not path.exists():
            return
        self.files[module] = path
        text = strip(path.read_text())
        self.sources[path] = text
        custom = {name: rel for rel, name in PATH_ATTR.findall(text)}
        base = path.parent if path.name in ("lib.rs", "mod.rs") else path.parent / path.stem
        for name in re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M):
            if name in custom:
                child = path.parent / custom[name]
            elif (base / f"{name}.rs").exists():
                child = base / f"{name}.rs"
            else:
                child = base / name / "mod.rs"
            self._discover(module + (name,), child)

    def module_of(self, path):
        for module, p in self.files.items():
            if p == path:
                return module
        raise KeyError(path)

    def absolute(self, path, segs):
        module = list(self.module_of(path))
        if not segs:
            return None
        if segs[0] == "crate":
            return segs[1:]
        if segs[0] == "self":
            return module + segs[1:]
        if segs[0] == "super":
            while segs and segs[0] == "super":
                module = module[:-1]
                segs = segs[1:]
            return module + segs
        # A path starting with a child module declared here (`use catch::flatten` in a mod.rs).
        if tuple(module + [segs[0]]) in self.files:
            return module + segs
        return None  # an external crate or a local item

    def _read(self, path):
        text = self.sources[path]
        uses, reexports = [], {}
        depth_at, depth = [], 0
        for ch in text:
            depth_at.append(depth)
            depth += {"{": 1, "}": -1}.get(ch, 0)
        for m in USE.finditer(text):
            vis, tree = m.group(1), m.group(2)
            # A `pub use` inside an inline module (`pub mod prelude { … }`) re-exports for that
            # module, not for this file.
            top_level = depth_at[m.start()] == 0
            for segs, alias in expand(tree):
                absolute = self.absolute(path, segs)
                if absolute is None:
                    continue
                if segs[-1] == "self":
                    absolute = absolute[:-1]
                uses.append((absolute, alias, segs[0] == "crate"))
                if top_level and alias not in ("self", "*"):
                    # Any top-level `use` binds the name in this module (a child may name it
                    # through `super::`), so a path through it is followed to the owner.
                    reexports[alias] = absolute
        without_uses = re.sub(r"pub\(in [^)]*\)", "", USE.sub("", text))
        for inline in INLINE.findall(without_uses):
            segs = inline.split("::")
            absolute = self.absolute(path, segs)
            if absolute is not None:
                uses.append((absolute, segs[-1], segs[0] == "crate"))
        self.uses[path] = uses
        self.reexports[path] = reexports

    def resolve(self, absolute, seen=()):
        """The file that defines what `absolute` names, and the name."""
        for cut in range(len(absolute), -1, -1):
            module = tuple(absolute[:cut])
            if module in self.files:
                path = self.files[module]
                rest = absolute[cut:]
                if not rest:
                    return path, module[-1] if module else "crate"
                name = rest[0]
                target = self.reexports[path].get(name)
                key = (path, name)
                if target is not None and key not in seen:
                    return self.resolve(target + rest[1:], seen + (key,))
                return path, name
        return None, None

    def edges(self):
        edges = defaultdict(set)
        through_root = []
        root = self.files[()]
        for path, uses in self.uses.items():
            for absolute, _alias, from_crate in uses:
                target, name = self.resolve(absolute)
                if target is None or target == path:
                    continue
                edges[(path, target)].add(name)
                if (
                    from_crate
                    and path != root
                    and len(absolute) >= 1
                    and tuple(absolute[:1]) not in self.files
                    and absolute[0] in self.reexports[root]
                ):
                    through_root.append((path, "::".join(["crate"] + absolute)))
        return edges, through_root


def cycles(nodes, edges):
    graph = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return out


def main():
    top = Path(__file__).resolve().parent.parent
    failed = False
    for src in CRATES:
        crate = Crate(top / src)
        edges, through_root = crate.edges()
        rel = lambda p: str(p.relative_to(top))  # noqa: E731
        if "--edges" in sys.argv:
            for (a, b), names in sorted(edges.items()):
                print(f"{rel(a)} -> {rel(b)}: {', '.join(sorted(names))}")
        for component in cycles(crate.files.values(), edges):
            failed = True
            print(f"import circle: {', '.join(rel(p) for p in component)}")
            members = set(component)
            for (a, b), names in sorted(edges.items()):
                if a in members and b in members:
                    print(f"  {rel(a)} -> {rel(b)}: {', '.join(sorted(names))}")
        for path, used in sorted(set(through_root)):
            failed = True
            print(f"{rel(path)}: `{used}` goes through the crate root; import it from its module")
    if failed:
        sys.exit(1)
    print("module graph: no import circles, no imports through the crate root")


if __name__ == "__main__":
    main()
