#!/usr/bin/env python3
"""Writes THIRD-PARTY.txt for an engine archive: every crate built into the engine and the
tablebase command for TARGET (normal dependencies only, as `cargo metadata` resolves them
for that platform, procedural macros left out), with its licence and the licence files it ships, and the licence of
the zstd C library that zstd-sys compiles in. MIT, BSD and Apache licences ask that their
text travel with a binary, which a bare list of names would not do.

    tools/release/third_party.py TARGET OUT
"""

import json
import subprocess
import sys
from pathlib import Path

ROOTS = ("xiangqi-engine", "xiangqi-egtb")
LICENCE_FILES = ("LICENSE", "LICENCE", "COPYING", "NOTICE", "UNLICENSE")


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    target, out = sys.argv[1], Path(sys.argv[2])
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--locked",
             "--filter-platform", target],
            check=True, capture_output=True, text=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    members = set(meta["workspace_members"])
    seen, todo = set(), [i for i in members if packages[i]["name"] in ROOTS]
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        # A procedural macro runs in the compiler and leaves nothing of itself in the binary.
        if any("proc-macro" in t["kind"] for t in packages[pid]["targets"]):
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            # Normal dependencies only: build scripts and tests are not in the binary.
            if any(k["kind"] is None for k in dep["dep_kinds"]):
                todo.append(dep["pkg"])
    lines = [
        "Third-party software built into xiangqi-engine and xiangqi-egtb",
        "================================================================",
        "",
    ]
    for pid in sorted(seen - members, key=lambda i: packages[i]["name"]):
        p = packages[pid]
        lines += [f"{p['name']} {p['version']} ({p.get('license') or 'see below'})", ""]
        crate_dir = Path(p["manifest_path"]).parent
        files = sorted(
            f for f in crate_dir.iterdir()
            if f.is_file() and f.name.upper().startswith(LICENCE_FILES)
        )
        # Offered under MIT among others: MIT is the licence taken, and its text is enough.
        licence = p.get("license") or ""
        mit = [f for f in files if "MIT" in f.name.upper()]
        if " OR " in licence and "MIT" in licence.split(" OR ") and mit:
            files = mit
        if p["name"] == "zstd-sys":
            files += sorted((crate_dir / "zstd").glob("LICENSE*"))
        for f in files:
            lines += [f"--- {f.relative_to(crate_dir)} ---", f.read_text(errors="replace").rstrip(), ""]
        if not files:
            lines += ["(no licence file in the package; its licence is named above)", ""]
    out.write_text("\n".join(lines) + "\n")
    print(f"third_party.py: {len(seen - members)} crates into {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
