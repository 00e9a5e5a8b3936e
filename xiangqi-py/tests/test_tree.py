"""Records with their variation trees: every sample file read, with the counts its own
markup gives (counted here with Python's codecs and regular expressions, not by the
Rust readers); cchess (1.25.5) reading the same files and the XQF and CBF files written
here; round trips through every writable format; the node API; warnings and strict mode;
Hypothesis over random trees and random bytes."""

import re
import tempfile
from pathlib import Path

import cchess
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xiangqi_rs as xiangqi
from conftest import RECORDS_DATA, REPO

PY_DATA = REPO / "xiangqi-py" / "tests" / "data"
UBB = RECORDS_DATA / "dhtmlxq_ubb_variations.txt"
XQF = RECORDS_DATA / "xqf10_sample_1997.xqf"
SPEC = RECORDS_DATA / "xqbase_spec_example.pgn"
PGN_FILES = {
    "pgn_utf8_chinese_multigame_noresult.pgn": "utf-8",
    "pgn_utf8_fullwidth_wxf_multigame.pgn": "utf-8",
    "pgn_ascii_iccs_nodash_multigame.pgn": "utf-8",
    "pgn_big5_trad_front_back.pgn": "big5",
    "pgn_big5_endgame_black_first.pgn": "big5",
    "xqbase_spec_example.pgn": "utf-8",
}
WRITABLE = ("pgn", "xqf", "ubb", "cbf")


# --- what a tree holds, walked through the Python node API ---------------------------

def snapshot(node):
    """The subtree after `node` as nested tuples: (move, comment, starting, nags, children)."""
    return tuple(
        (child.uci(), child.comment, child.starting_comment, tuple(child.nags), snapshot(child))
        for child in node.variations
    )


def tree_of(game):
    return game.root().comment, snapshot(game.root())


def all_comments(game):
    """Every non-empty comment of the tree, with the moves that lead to it."""
    out = []
    stack = [game.root()]
    while stack:
        node = stack.pop()
        path = tuple(m.uci() for m in node.board().move_stack)
        for kind, text in (("after", node.comment), ("before", node.starting_comment)):
            if text:
                out.append((path, kind, text))
        stack.extend(node.variations)
    return sorted(out)


def uci_lines(game):
    return [[m.uci() for m in line] for line in game.lines()]


# --- what each format keeps (the projections of xiangqi-records' README) --------------

def reduced(tree, keep_side_heads):
    """The tree without NAGs, starting comments joined to the comment of the move
    before (except on side lines' first moves when `keep_side_heads`)."""
    root_comment, children = tree

    def walk(children):
        out, carried = [], []
        for i, (move, comment, before, _nags, sub) in enumerate(children):
            keep = keep_side_heads and i > 0
            if before and not keep:
                carried.append(before)
                before = ""
            sub_children, sub_carried = walk(sub)
            if sub_carried:
                comment = "\n".join([comment] * bool(comment) + sub_carried)
            out.append((move, comment, before, (), sub_children))
        return tuple(out), carried

    children, carried = walk(children)
    if carried:
        root_comment = "\n".join([root_comment] * bool(root_comment) + carried)
    return root_comment, children


def main_line(tree):
    _, children = tree
    out = []
    while children:
        out.append(children[0][0])
        children = children[0][4]
    return out


def round_trip(game, tmp_path=None):
    """Writes `game` in every format, reads it back, checks what the format keeps."""
    tree = tree_of(game)
    for notation in (None, "chinese", "wxf", "iccs"):
        for encoding in ("utf-8", "gb18030"):
            data = xiangqi.write(game, "pgn", encoding=encoding, notation=notation)
            back = xiangqi.read(data)
            assert back.format == "PGN" and len(back) == 1
            assert back.encoding.lower() == encoding or data.isascii()
            assert tree_of(back[0]) == tree, (notation, encoding, data.decode(back.encoding))
            assert back[0].result == game.result
    back = xiangqi.read(game.to_xqf())
    assert back.format == "XQF" and not back.warnings, back.warnings
    assert tree_of(back[0]) == reduced(tree, keep_side_heads=False)
    assert back[0].result == game.result
    back = xiangqi.read_ubb(game.to_ubb())
    assert back.format == "DhtmlXQ" and not back.warnings, back.warnings
    assert tree_of(back[0]) == reduced(tree, keep_side_heads=True)
    back = xiangqi.read(game.write("cbf"))
    assert back.format == "CBF"
    assert main_line(tree_of(back[0])) == main_line(tree)
    assert back[0].start_board().fen() == game.start_board().fen()
    assert back[0].result == game.result


# --- counts from the files' own markup -------------------------------------------------

def pgn_markup(path, encoding):
    """Per game: (main-line moves, comments, side lines), counted in the text itself."""
    text = path.read_bytes().decode(encoding)
    # A game is a block of tag lines and the move text after it.
    games, in_moves = [], True
    for line in text.splitlines():
        is_tag = line.startswith("[")
        if is_tag and in_moves:
            games.append([])
        in_moves = not is_tag and (in_moves or bool(line.strip()))
        if not is_tag:
            games[-1].append(line)
    out = []
    for g in games:
        body = "\n".join(g)
        comments = len(re.findall(r"\{[^}]*\}", body))
        body = re.sub(r"\{[^}]*\}", " ", body)
        side_lines = body.count("(")
        # Main line: drop the variations (innermost first), move numbers and the result.
        while "(" in body:
            body = re.sub(r"\([^()]*\)", " ", body)
        body = re.sub(r"\d+\.(\.\.)?", " ", body)
        tokens = [t for t in body.split() if t not in ("1-0", "0-1", "1/2-1/2", "*")]
        out.append((len(tokens), comments, side_lines))
    return out


@pytest.mark.parametrize("name", sorted(PGN_FILES))
def test_pgn_samples_hold_what_their_text_holds(name):
    path = RECORDS_DATA / name
    expected = pgn_markup(path, PGN_FILES[name])
    records = xiangqi.read(path)
    assert records.format == "PGN"
    assert records.encoding == {"utf-8": "UTF-8", "big5": "Big5"}[PGN_FILES[name]]
    assert [(len(g.moves), g.comment_count(), g.line_count() - 1) for g in records] == expected
    for g in records:
        assert g.lines()[0] == g.moves


def test_dhtmlxq_sample_holds_what_its_fields_hold():
    text = UBB.read_text("utf-8")
    fields = dict(re.findall(r"\[DhtmlXQ_(move_\d+_\d+_\d+|movelist)\](\d*)\[/", text))
    branches = [k for k in fields if k.startswith("move_")]
    comments = re.findall(r"\[DhtmlXQ_comment[\d_]+\]([^\[]*)\[/", text)
    records = xiangqi.read(UBB)
    (game,) = records
    assert records.format == "DhtmlXQ"
    assert game.line_count() == 1 + len(branches) == 4
    assert game.move_count() == sum(len(v) // 4 for v in fields.values())
    assert game.comment_count() == len(comments) == 9
    assert sorted(t for _, _, t in all_comments(game)) == sorted(comments)
    # Each branch `move_L_P_S` leaves its parent line after ply P - 1: its moves are the
    # line's tail, in the file's (x, row-from-the-top) coordinates.
    files = "abcdefghi"
    for key in branches:
        _, _, ply, _ = key.split("_")
        digits = fields[key]
        tail = [f"{files[int(digits[i])]}{9 - int(digits[i + 1])}{files[int(digits[i + 2])]}{9 - int(digits[i + 3])}"
                for i in range(0, len(digits), 4)]
        assert any(line[int(ply) - 1:] == tail for line in uci_lines(game)), key
    # The file closes `blacktime` with `[/DhtmlXQ_time]` on two lines: two warnings there.
    bad_lines = [i + 1 for i, l in enumerate(text.splitlines()) if "[DhtmlXQ_blacktime][/DhtmlXQ_time]" in l]
    assert [(w.kind, w.line) for w in records.warnings] == [("mismatched_close", n) for n in bad_lines]
    assert game.warnings and all(w.game == 0 for w in game.warnings)
    with pytest.raises(xiangqi.RecordError) as caught:
        xiangqi.read(UBB, strict=True)
    assert isinstance(caught.value, ValueError)
    assert caught.value.warning.kind == "mismatched_close" and caught.value.format == "DhtmlXQ"


# --- cchess as the independent reader -------------------------------------------------

def cchess_tree(g):
    """(lines as ICCS lists, comments as (path, text)) of a cchess game."""
    comments = []
    if g.annote:
        comments.append(((), "after", g.annote.strip()))
    stack = [((), m) for m in (g.first_move.get_siblings(include_me=True) if g.first_move else [])]
    while stack:
        path, m = stack.pop()
        path = path + (str(m),)
        if m.annote and m.annote.strip():
            comments.append((path, "after", m.annote.strip()))
        stack.extend((path, c) for c in m.get_children())
    lines = g.dump_iccs_moves()
    return sorted(lines), sorted(comments)


def test_xqf_sample_agrees_with_cchess_tree():
    ours = xiangqi.read(XQF)[0]
    lines, comments = cchess_tree(cchess.read_from_xqf(str(XQF)))
    assert sorted(uci_lines(ours)) == lines
    assert all_comments(ours) == comments


def test_pgn_first_game_agrees_with_cchess_tree():
    path = RECORDS_DATA / "pgn_utf8_chinese_multigame_noresult.pgn"
    lines, _ = cchess_tree(cchess.read_from_pgn(str(path)))
    assert uci_lines(xiangqi.read(path)[0]) == lines


def sample_games():
    games = list(xiangqi.read(UBB)) + list(xiangqi.read(SPEC)) + list(xiangqi.read(XQF))
    for name in sorted(PGN_FILES):
        games += list(xiangqi.read(RECORDS_DATA / name))[:3]
    return games


def test_written_xqf_and_cbf_read_by_cchess(tmp_path):
    """cchess reads our XQF with every line and comment, and our CBF's main line."""
    for i, game in enumerate(sample_games()):
        path = tmp_path / f"{i}.xqf"
        game.save_to(path)
        lines, comments = cchess_tree(cchess.read_from_xqf(str(path)))
        assert sorted(uci_lines(game)) == lines, i
        expected = sorted((p, k, t.strip()) for p, k, t in all_comments(xiangqi.read(path)[0]))
        assert expected == comments, i
        assert cchess.read_from_xqf(str(path)).init_board.to_fen().split()[0] == game.start_board().board_fen()
        path = tmp_path / f"{i}.cbf"
        game.save_to(path)
        theirs = cchess.read_from_cbf(str(path))
        assert (theirs.dump_iccs_moves() or [[]])[0] == [m.uci() for m in game.moves], i


# --- round trips ----------------------------------------------------------------------

def test_samples_round_trip_through_every_format():
    for game in sample_games():
        round_trip(game)


def test_master_games_as_move_lists():
    for line in (PY_DATA / "master_games_100.txt").read_text("utf-8").splitlines():
        result, moves = line.split("\t")
        (game,) = xiangqi.read(f"{moves} {result}".encode(), format="text")
        assert [m.uci() for m in game.moves] == moves.split() and game.result == result
        round_trip(game)


COMMENT = st.text(alphabet="许银川 abZ09(){}[];$\"\\%<>&!?\n", max_size=12).map(str.strip)


@st.composite
def random_games(draw):
    game = xiangqi.Game()
    game.root().comment = draw(COMMENT)
    nodes = [game.root()]
    for _ in range(draw(st.integers(0, 25))):
        parent = draw(st.sampled_from(nodes))
        moves = parent.board().legal_moves()
        if not moves:
            continue
        existing = {n.move for n in parent.variations}
        fresh = [m for m in moves if m not in existing]
        if not fresh:
            continue
        node = parent.add_variation(draw(st.sampled_from(fresh)), comment=draw(COMMENT),
                                    nags=draw(st.lists(st.integers(1, 6), max_size=2)))
        if node.starts_variation():
            node.starting_comment = draw(COMMENT)
        nodes.append(node)
    game.result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]))
    game.set_tag("Red", draw(st.sampled_from(["许银川", "A. Red"])))
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_games())
def test_random_trees_round_trip(game):
    round_trip(game)
    back = xiangqi.read(game.write("pgn"))[0]
    assert back.tag("Red") == game.tag("Red")
    # cchess reads the XQF written from the tree with every line.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tree.xqf"
        game.save_to(path)
        lines, _ = cchess_tree(cchess.read_from_xqf(str(path)))
        assert lines == (sorted(uci_lines(game)) if game.move_count() else [])


# --- the node API ---------------------------------------------------------------------

def test_node_api():
    game = xiangqi.Game()
    root = game.root()
    assert root.move is None and root.parent is None and root.is_end() and root.ply() == 0
    e2 = root.add_variation("炮二平五", comment="中炮")
    c4 = root.add_variation("c3c4", starting_comment="仙人指路", nags=[5])
    assert [n.move.uci() for n in game.variations] == ["h2e2", "c3c4"]
    assert e2.is_main_variation() and c4.starts_variation() and not c4.is_mainline()
    reply = e2.add_variation(xiangqi.Move.from_uci("h9g7"))
    assert reply.chinese() == "马８进７" and reply.wxf() == "H8+7" and reply.ply() == 2
    assert reply.parent == e2 and reply.root() == root and reply.game() is game
    assert reply.board().move_stack == [xiangqi.Move.from_uci("h2e2"), xiangqi.Move.from_uci("h9g7")]
    assert game.mainline() == [e2, reply] and game.end() == reply
    assert root.mainline_moves() == game.moves and e2.next() == reply
    assert root.variation(1) == c4 and root.variation_with("c3c4") == c4
    with pytest.raises(IndexError):
        root.variation(2)
    with pytest.raises(xiangqi.IllegalMoveError):
        e2.add_variation(xiangqi.Move.from_uci("h2e2"))
    with pytest.raises(xiangqi.NotationError):
        e2.add_variation("h2e2")
    assert game.move_count() == 3  # unchanged by the refused move
    c4.promote_to_main()
    assert game.moves == [xiangqi.Move.from_uci("c3c4")] and c4.nags == [5]
    c4.demote()
    assert game.moves[0].uci() == "h2e2"
    assert game.comments == [(1, "中炮")]
    game.add_comment(2, "屏风马")
    assert reply.comment == "屏风马" and game.comment_count() == 3
    c4.remove()
    assert game.line_count() == 1
    with pytest.raises(ValueError, match="remove"):
        e2.comment
    with pytest.raises(ValueError):
        game.root().remove()
    fresh = game.mainline()[0]
    fresh.comment = "改"
    assert game.comments[0] == (1, "改")
    copy = game.copy()
    copy.mainline()[0].comment = "other"
    assert game.mainline()[0].comment == "改" and copy != game
    assert tree_of(xiangqi.read(game.write())[0]) == tree_of(game)
    assert game.copy() == game


def test_records_sequence_and_sources(tmp_path):
    records = xiangqi.read(str(RECORDS_DATA / "pgn_utf8_chinese_multigame_noresult.pgn"))
    assert len(records) == 15 and records[-1] is not None and len(list(records)) == 15
    assert records.games[0].moves == records[0].moves
    assert [w.kind for w in records.warnings] == ["missing_result"] * 15
    assert records[3].warnings[0].game == 3
    with pytest.raises(IndexError):
        records[15]
    data = bytearray(XQF.read_bytes())
    assert xiangqi.read(data).format == "XQF"
    with pytest.raises(FileNotFoundError):
        xiangqi.read(tmp_path / "missing.pgn")
    with pytest.raises(TypeError):
        xiangqi.read(3.5)
    with pytest.raises(ValueError):
        xiangqi.read(b"", format="docx")
    games = list(records)[:3]
    both = xiangqi.read(xiangqi.write(games))
    assert [g.moves for g in both] == [g.moves for g in games]
    with pytest.raises(ValueError):
        xiangqi.write(games, "xqf")
    with pytest.raises(ValueError):
        xiangqi.write(games[0], "cbr")
    iccs = xiangqi.write_pgn(games[0], "iccs")
    assert re.search(r"\b[a-i]\d[a-i]\d\b", iccs) and "[Format \"ICCS\"]" in iccs and xiangqi.read_pgn(iccs)[0].moves == games[0].moves
    assert xiangqi.read(xiangqi.write_xqf(games[0]))[0].moves == games[0].moves
    assert xiangqi.read_ubb(xiangqi.write_ubb(games[0]))[0].moves == games[0].moves
    assert xiangqi.read_cbf(xiangqi.write_cbf(games[0]))[0].moves == games[0].moves


def test_warnings_places_and_strict():
    text = '[Game "Chinese Chess"]\n1. 炮二平五 马８进７ 2. 马二进三 h2e2 *\n'
    records = xiangqi.read(text.encode())
    (w,) = records.warnings
    assert w.kind == "bad_move" and w.line == 2 and w.ply == 4 and w.offset is None
    assert w.column == text.splitlines()[1].index("h2e2") + 1
    assert "line 2" in w.place and "h2e2" in w.message and str(w).startswith(w.place)
    assert len(records[0].moves) == 3
    with pytest.raises(xiangqi.PgnError) as caught:
        xiangqi.read(text.encode(), strict=True)
    assert caught.value.warning.kind == "bad_move" and isinstance(caught.value, xiangqi.RecordError)
    with pytest.raises(xiangqi.PgnError, match="line 2"):
        xiangqi.read_pgn(text)  # the main-line reader still refuses an illegal move
    truncated = XQF.read_bytes()[:0x420]
    with pytest.raises(xiangqi.XqfError):
        xiangqi.read(truncated, strict=True)
    assert issubclass(xiangqi.RecordError, xiangqi.XiangqiError)
    assert issubclass(xiangqi.XqfError, xiangqi.RecordError)


def test_ecco_agrees_with_the_files_tags():
    (game,) = xiangqi.read(RECORDS_DATA / "pgn_big5_trad_front_back.pgn")
    code, name = game.ecco()
    assert code == game.tag("ECCO") == "D30" and name == xiangqi.ecco_name("D30")
    assert xiangqi.read(RECORDS_DATA / "pgn_big5_endgame_black_first.pgn")[0].ecco() is None
    assert xiangqi.ecco_name("Z99") is None
    empty = xiangqi.Game()
    empty.set_ecco_tags()
    assert empty.tag("ECCO") is None
    game.remove_tag("ECCO")
    game.set_ecco_tags()
    assert game.tag("ECCO") == "D30"


# --- garbage never crashes ------------------------------------------------------------

FORMATS = (None, "pgn", "xqf", "ubb", "cbf", "cbr", "cbl", "text")


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=3000),
        st.binary(max_size=2000).map(lambda b: b"XQ" + b),
        st.binary(max_size=2000).map(lambda b: b"CCBridgeRecord" + b),
        st.binary(max_size=2000).map(lambda b: b"CCBridgeLibrary" + b),
        st.text(max_size=400).map(lambda t: ("[DhtmlXQ]" + t).encode("utf-8")),
        st.text(max_size=400).map(lambda t: ("<ChineseChessRecord>" + t).encode("gb18030")),
    ),
    st.sampled_from(FORMATS),
    st.booleans(),
)
def test_read_never_crashes(data, fmt, strict):
    try:
        records = xiangqi.read(data, format=fmt, strict=strict)
    except xiangqi.RecordError as e:
        assert isinstance(e, ValueError) and str(e) and e.warning.kind
        return
    for game in records:
        for w in game.warnings + records.warnings:
            assert w.kind and w.message
        tree_of(game)
        for fmt_out in WRITABLE:
            game.write(fmt_out)
