#!/usr/bin/env python3
"""Builds xiangqi-records/data/ecco.tsv, the ECCO opening table the classifier reads.

Source: 象棋百科全书网 (xqbase.com), "中国象棋开局编号——ECCO 2004" (December 2004): for each
code A00-E99 its name and its defining moves, as the site's pages write them, copied to a
text file by hbsxcjp/cchess_c (chessManual/eccolib_src, commit
b2fb087b32dd60514f1616967f5f3c9b01ba51bd). A section (A1, C0, ...) may open with moves
common to its codes, and a "局面" (a position reached by moves in any order).

This script reshapes that text, one line per code and variant (a variant is one of the
alternatives the source separates by "／" at a line's end):

    CODE <TAB> NAME <TAB> RED <TAB> BLACK

RED and BLACK are space-separated cells of moves in Chinese notation: `^a/b` the side's
first move (one of a, b), `a/b` a move it must make among its first moves, `~a` a move it
may make before (the source's "此前可走"), `=a/b` the first move is one of these (named again as moves it must make), `_` one move that may be anything (the source's
"……" at a numbered move), `*` any number of moves that may be anything ("……" at a move
the source numbers with a letter: "m. ……，车９平８"). The Rust classifier
(xiangqi-records/src/ecco.rs) turns the moves into coordinates by playing them.

    python3 tools/ecco_table.py eccolib_src > xiangqi-records/data/ecco.tsv
"""

import re
import sys

PIECES = "车马炮相象仕士帅将兵卒"
MOVE = (f"[{PIECES}前中后一二三四五][一二三四五六七八九１２３４５６７８９1-9{PIECES}]"
        "[进退平][一二三四五六七八九１２３４５６７８９1-9]")
TOKEN = re.compile(rf"(?P<num>(?<![\w])(\d+|[a-z])\.\s?)|(?P<cell>{MOVE}(?:／{MOVE})*)|(?P<any>……)|(?P<comma>，)")
RED_DIGITS = set("一二三四五六七八九")


def side_of(move):
    return 0 if move[-1] in RED_DIGITS else 1


def parse_variant(text):
    """Cells per side (red, black) of one variant's text."""
    sides = ([], [])
    # Parentheticals: "此前可走 ..." lists moves allowed before; others ("不包括 ...") go.
    def fillers(m):
        inner = m.group(1)
        if "此前" in inner and "除" not in inner:
            for cell in re.findall(MOVE, inner):
                sides[side_of(cell)].append("~" + cell)
        return " "
    text = re.sub(r"[(（]([^()（）]*)[)）]", fillers, text)
    for line in text.split("\n"):
        # A numbered move does not run past its line ("红方：..." lists stand alone).
        number, after_comma = None, False
        for t in TOKEN.finditer(line):
            if t.group("num"):
                number, after_comma = t.group("num").strip(". "), False
            elif t.group("comma"):
                after_comma = True
            elif t.group("any"):
                side = 1 if after_comma else 0
                if number is not None:
                    sides[side].append("*" if number.isalpha() else "_")
            elif t.group("cell"):
                cell = t.group("cell").replace("／", "/")
                side = side_of(cell.split("/")[0])
                first = number == "1" and ((side == 0) != after_comma)
                sides[side].append(("^" if first else "") + cell)
    # A move the text names twice (a numbered move and a "不分先后" list) counts once.
    for side in sides:
        seen = set()
        kept = []
        for c in side:
            key = c.lstrip("^~")
            if c in ("_", "*") or key not in seen:
                kept.append(c)
                seen.add(key)
        # A first-move cell whose moves are all required anyway only says which comes first.
        for k, c in enumerate(kept):
            options = c[1:].split("/") if c.startswith("^") else []
            if len(options) > 1 and all(o in seen and any(x == o for x in kept) for o in options):
                kept[k] = "=" + c[1:]
        side[:] = kept
    return sides


def variants(text):
    """The alternatives of a text: split where a line ends with '／'. An alternative that
    starts at a later move than the first takes the first one's moves before it."""
    if not text.strip():
        return [""]
    parts = re.split(r"／\s*\n", text)
    first_lines = parts[0].strip().split("\n")
    out = [parts[0]]
    for p in parts[1:]:
        m = re.match(r"\s*(\d+)\.", p)
        head = []
        if m and m.group(1) != "1":
            for line in first_lines:
                if re.match(rf"\s*{m.group(1)}\.", line):
                    break
                head.append(line)
        out.append("\n".join(head + [p]))
    # A note on a line of its own after the last alternative ("(此前可走...)") holds for all.
    notes = [l for l in parts[-1].split("\n") if l.strip().startswith(("(", "（"))]
    if len(parts) > 1 and notes:
        out = [o if o is out[-1] else o + "\n" + "\n".join(notes) for o in out]
    return out


def main(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    section_head = re.compile(r"^([A-E]\d)．(.+?)\(共")
    code_head = re.compile(r"^([A-E]\d\d)．(.+)$")
    out = []
    prefix, current = "", None
    body = []

    def flush():
        if current is None:
            return
        code, name = current
        # "其中：...(D31~D36)": the section's moves hold for those codes only.
        scope = re.search(r"其中：[^\n]*\(([A-E]\d\d)~([A-E]\d\d)\)", prefix)
        section = prefix
        if scope:
            section = re.sub(r"其中：[^\n]*\n", "", prefix)
            if not scope.group(1) <= code <= scope.group(2):
                section = ""
        text = "\n".join(body)
        text = re.sub(r"共[\d+=]+局|^\s*无\s*$", " ", text, flags=re.M)
        text = re.sub(r"从[A-E]\d\d局面开始：", " ", text)
        for pv in variants(section):
            for cv in variants(text):
                red, black = parse_variant(pv + "\n" + cv)
                out.append(f"{code}\t{name}\t{' '.join(red)}\t{' '.join(black)}")

    in_section_prefix = False
    for line in lines:
        s = section_head.match(line)
        c = code_head.match(line)
        if s:
            flush()
            current, body = None, []
            prefix, in_section_prefix = "", True
        elif c:
            flush()
            in_section_prefix = False
            name = c.group(2).strip()
            current = None if name == "空" else (c.group(1), name)
            body = []
        elif in_section_prefix:
            if "局面 =" not in line and not re.match(r"^[A-E]．", line):
                prefix += line + "\n"
        elif current is not None:
            if line.startswith("上一") or re.match(r"^[A-E]．", line) or "www.xqbase.com" in line:
                flush()
                current = None
            else:
                body.append(line)
    flush()
    print("# ECCO 2004 (象棋百科全书网 xqbase.com) via hbsxcjp/cchess_c chessManual/eccolib_src;")
    print("# reshaped by tools/ecco_table.py: CODE NAME RED BLACK (see xiangqi-records/data/README.md)")
    for line in out:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1])
