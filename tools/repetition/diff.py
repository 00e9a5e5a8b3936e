#!/usr/bin/env python3
"""Differential test of the repetition judge against Fairy-Stockfish (pyffish) and cchess.

Reads cycles (`class<TAB>fen<TAB>moves`, as `repetition_cycles` writes them), has our judge
(`repetition_judge`, Rust) and pyffish's `is_optional_game_end` judge each cycle played twice
(the position then stands for the third time), and reports the agreement per class of cycle.

cchess (PyPI) has no repetition rules of its own; where it judges -- the legality of every
move, the position coming back, and which moves give check -- it checks our side's replay on
a sample, and a perpetual-check verdict built from its check flags alone is compared with
ours on the cycles where one side checked with every move.

Every disagreement is put in a class by `explain()`: the documented differences of
docs/REPETITION.md, each with the rule that decides it. With `--fail-unexplained`, the exit
status is 1 when a disagreement falls in no documented class (for CI).

    python tools/repetition/diff.py CYCLES --judge target/release/examples/repetition_judge \
        [--cchess N] [--examples FILE] [--fail-unexplained]
"""

import argparse
import collections
import re
import subprocess
import sys

import pyffish

VARIANT = "xiangqi"


def to_ffish(move):
    """ICCS (ranks 0..9) to Fairy-Stockfish's coordinates (ranks 1..10)."""
    return "%s%d%s%d" % (move[0], int(move[1]) + 1, move[2], int(move[3]) + 1)


def side_to_move(fen):
    return "black" if fen.split()[1] == "b" else "red"


def other(side):
    return "black" if side == "red" else "red"


def ffish_verdict(fen, moves):
    """The loser by Fairy-Stockfish's rules ('red', 'black', 'draw'), or 'none'."""
    ended, value = pyffish.is_optional_game_end(VARIANT, fen, moves)
    if not ended:
        return "none"
    if value == 0:
        return "draw"
    stm = side_to_move(fen)  # two cycles: the same side is to move again
    return other(stm) if value > 0 else stm


def check_flags(fen, moves):
    """For each move of the cycle, whether it gave check (by pyffish)."""
    return [bool(pyffish.gives_check(VARIANT, fen, moves[: i + 1])) for i in range(len(moves))]


def cchess_replay(fen, iccs):
    """Replays the cycle with cchess: (all legal, back to the start, check flags)."""
    import cchess

    board = cchess.ChessBoard(fen)
    start = board.to_fen().split()[:2]
    flags = []
    for m in iccs:
        done = board.move_iccs(m) if board.is_valid_iccs_move(m) else None
        if done is None:
            return False, False, flags
        flags.append(bool(done.is_checking))
        board.next_turn()
    return True, board.to_fen().split()[:2] == start, flags


def perpetual_check_loser(fen, flags):
    """The side that checked with every move while the other did not, else None."""
    stm = side_to_move(fen)
    mine, theirs = flags[0::2], flags[1::2]
    a, b = all(mine), all(theirs)
    if a and not b:
        return stm
    if b and not a:
        return other(stm)
    return None


class Board:
    """Just enough of a board to recognise the documented classes: pieces by square."""

    def __init__(self, fen):
        self.sq = {}
        for r, row in enumerate(fen.split()[0].split("/")):
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                else:
                    self.sq[(f, 9 - r)] = ch
                    f += 1

    def play(self, move):
        a = (ord(move[0]) - 97, int(move[1]))
        b = (ord(move[2]) - 97, int(move[3]))
        self.sq[b] = self.sq.pop(a)
        return a, b

    def line_target(self, at, step, jumps):
        """The piece a slider on `at` reaches going `step` (a chariot: the first piece,
        a cannon: the one after the first), as (square, piece) or None."""
        f, r = at
        seen = 0
        while True:
            f, r = f + step[0], r + step[1]
            if not (0 <= f < 9 and 0 <= r < 10):
                return None
            if (f, r) in self.sq:
                if seen == jumps:
                    return (f, r), self.sq[(f, r)]
                seen += 1


def red(piece):
    return piece.isupper()


def slides_along_its_attack(fen, moves, side):
    """Does `side` make a chariot or cannon move along a line on which it attacks an
    enemy piece (not the general) behind it, before and after the move (class F3)?"""
    board = Board(fen)
    stm = side_to_move(fen)
    for i, m in enumerate(moves):
        mover = stm if i % 2 == 0 else other(stm)
        piece = board.sq.get((ord(m[0]) - 97, int(m[1])), "?")
        before = dict(board.sq)
        a, b = board.play(m)
        if mover != side or piece.lower() not in "rc" or (a[0] != b[0] and a[1] != b[1]):
            continue
        step = ((a[0] > b[0]) - (a[0] < b[0]), (a[1] > b[1]) - (a[1] < b[1]))
        jumps = 0 if piece.lower() == "r" else 1
        after_t = board.line_target(b, step, jumps)
        snapshot = board.sq
        board.sq = before
        before_t = board.line_target(a, step, jumps)
        board.sq = snapshot
        if after_t and after_t == before_t and red(after_t[1]) != red(piece) \
                and after_t[1].lower() != "k":
            return True
    return False


FFISH_MOVE = re.compile(r"([a-i])(\d+)([a-i])(\d+)")


def general_is_a_false_root(fen, moves, side):
    """After some move of `side`, can it capture a piece whose general stands next to it
    while no legal recapture exists (class F4)? Judged with pyffish's legal moves, in the
    position after the move with `side` to move again."""
    stm = side_to_move(fen)
    ff = [to_ffish(m) for m in moves]
    for i in range(len(ff)):
        if (stm if i % 2 == 0 else other(stm)) != side:
            continue
        parts = pyffish.get_fen(VARIANT, fen, ff[: i + 1]).split()
        parts[1] = "w" if side == "red" else "b"
        flipped = " ".join(parts)
        board = Board(flipped)
        for cap in pyffish.legal_moves(VARIANT, flipped, []):
            f1, r1, f2, r2 = FFISH_MOVE.fullmatch(cap).groups()
            target = (ord(f2) - 97, int(r2) - 1)
            victim = board.sq.get(target)
            if victim is None or victim.lower() == "k":
                continue
            general = "k" if red(victim) is False else "K"
            next_to = [(target[0] + df, target[1] + dr)
                       for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            if not any(board.sq.get(s) == general for s in next_to):
                continue
            retakes = [m for m in pyffish.legal_moves(VARIANT, flipped, [cap])
                       if FFISH_MOVE.fullmatch(m).group(3, 4) == (f2, r2)]
            if not retakes:
                return True
    return False


def flipped_fen(fen, side):
    parts = fen.split()
    parts[1] = "w" if side == "red" else "b"
    return " ".join(parts)


def unprotected_captures(fen):
    """The side to move's legal captures (attacker, target) of a piece other than the
    general, split into those the opponent can legally retake and those it cannot."""
    board = Board(fen)
    safe, retaken = set(), set()
    for cap in pyffish.legal_moves(VARIANT, fen, []):
        f1, r1, f2, r2 = FFISH_MOVE.fullmatch(cap).groups()
        victim = board.sq.get((ord(f2) - 97, int(r2) - 1))
        if victim is None or victim.lower() == "k":
            continue
        retakes = any(FFISH_MOVE.fullmatch(m).group(3, 4) == (f2, r2)
                      for m in pyffish.legal_moves(VARIANT, fen, [cap]))
        (retaken if retakes else safe).add((f1 + r1, f2 + r2))
    return safe, retaken


def removes_protection(fen, moves, side):
    """Does some move of `side` (not in check, not moving the attacker or the target)
    leave a piece that one of its pieces could already take protected before the move,
    and unprotected after it (class P1)? Judged with pyffish's legal moves."""
    stm = side_to_move(fen)
    ff = [to_ffish(m) for m in moves]
    for i in range(len(ff)):
        if (stm if i % 2 == 0 else other(stm)) != side:
            continue
        before_fen = pyffish.get_fen(VARIANT, fen, ff[:i])
        if pyffish.gives_check(VARIANT, fen, ff[:i]):
            continue
        after_fen = flipped_fen(pyffish.get_fen(VARIANT, fen, ff[: i + 1]), side)
        _, retaken_before = unprotected_captures(before_fen)
        safe_after, _ = unprotected_captures(after_fen)
        f1, r1, f2, r2 = FFISH_MOVE.fullmatch(ff[i]).groups()
        moved = {f1 + r1, f2 + r2}
        if any(a not in moved and t not in moved for a, t in safe_after & retaken_before):
            return True
    return False


def known_cycles():
    """Cycles read one by one (tools/repetition/known.tsv): (fen, moves) -> class."""
    path = __file__.rsplit("/", 1)[0] + "/known.tsv"
    known = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                cls, fen, moves = line.rstrip("\n").split("\t")
                known[(fen, moves)] = cls
    return known


KNOWN = known_cycles()


def generals_file_pin_misread(fen, moves, side):
    """After some move of `side`, do the generals share a file with exactly one piece of
    the opponent's between them and one or more of `side`'s (class F6)?"""
    board = Board(fen)
    stm = side_to_move(fen)
    for i, m in enumerate(moves):
        board.play(m)
        if (stm if i % 2 == 0 else other(stm)) != side:
            continue
        kings = {p: sq for sq, p in board.sq.items() if p in "kK"}
        if len(kings) < 2 or kings["k"][0] != kings["K"][0]:
            continue
        f, lo, hi = kings["K"][0], kings["K"][1], kings["k"][1]
        between = [board.sq[(f, r)] for r in range(lo + 1, hi) if (f, r) in board.sq]
        mine = [p for p in between if red(p) == (side == "red")]
        theirs = [p for p in between if red(p) != (side == "red")]
        if len(theirs) == 1 and mine:
            return True
    return False


def explain(row):
    """The documented class of a disagreement (docs/REPETITION.md), or None."""
    ours, ffish, fen, moves = row["ours"], row["ffish"], row["fen"], row["moves"].split()
    if (fen, row["moves"]) in KNOWN:
        return KNOWN[(fen, row["moves"])]
    if ffish in ("red", "black") and ours != ffish and slides_along_its_attack(fen, moves, ffish):
        # F3: Fairy-Stockfish counts a chariot or cannon that moves along the line of
        # an attack it already makes as uncovering that attack (a new chase); by CXA
        # 1999 art. 29.2 and example 6 (从捉到捉) the attack is not new.
        return "F3 slide along an existing attack"
    stm = side_to_move(fen)
    if ffish in ("red", "black") and ours == "draw":
        flags = check_flags(fen, [to_ffish(m) for m in moves])
        mine = flags[0::2] if ffish == stm else flags[1::2]
        if any(mine) and not all(mine):
            # F1: the side gives a check among its chases. Asian rules as we read them
            # (WXF; CXA art. 27.4, the heavier nature of a move decides): a check breaks
            # a perpetual chase. Fairy-Stockfish counts the pieces a checking move also
            # attacks as chased.
            return "F1 check among chases"
    if ffish in ("red", "black") and ours != ffish \
            and generals_file_pin_misread(fen, moves, ffish):
        # F6: Fairy-Stockfish treats a piece as pinned by the facing generals when it is
        # its side's only piece on the generals' file, even though pieces of the other
        # side stand between them too; so it takes that piece's protection away and
        # finds a chase. A piece is pinned only when it is the last piece between them.
        return "F6 generals' file misread as a pin"
    chased_by_ours = ours in ("red", "black") and ffish != ours \
        and "perpetual chase" in row["detail"].split(" | ")[0]
    if chased_by_ours and removes_protection(fen, moves, ours):
        # P1: a move takes away the protection of a piece its side already attacks
        # (moves the protector away, blocks its line, or moves a cannon's screen).
        # CXA art. 29.2 and example 2 (从没捉到捉): a chase; Pikafish counts it;
        # Fairy-Stockfish sees only new attacks and new pins.
        return "P1 protection taken away"
    if chased_by_ours and general_is_a_false_root(fen, moves, ours):
        # F4: Fairy-Stockfish counts the general as protecting a piece next to it even
        # when the general could not legally retake (the point stays attacked, or the
        # generals would face); by CXA art. 28.16 that is a false root (假根), and the
        # piece is chased.
        return "F4 general as a false root"
    return None


def run_judge(path, lines):
    """Our verdicts for the cycles: (asian, chinese, detail) per line."""
    out = subprocess.run(
        [path], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if len(out) != len(lines):
        sys.exit("%s answered %d lines for %d cycles" % (path, len(out), len(lines)))
    return [(a.split("\t") + ["", ""])[:3] for a in out]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cycles")
    ap.add_argument("--judge", required=True, action="append",
                    help="a repetition_judge binary; repeat to compare builds in one pass "
                         "(the last one is checked and its disagreements written)")
    ap.add_argument("--cchess", type=int, default=2000, help="cycles replayed with cchess")
    ap.add_argument("--examples", help="write the last judge's disagreements here (TSV)")
    ap.add_argument("--fail-unexplained", action="store_true")
    args = ap.parse_args()

    with open(args.cycles, encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    answers = [run_judge(j, lines) for j in args.judge]

    total = collections.Counter()
    agree = [collections.Counter() for _ in args.judge]
    kinds = [collections.Counter() for _ in args.judge]
    unexplained = []
    problems = []
    cc_checked = cc_bad = cc_pc = cc_pc_agree = 0
    rows = []
    for n, line in enumerate(lines):
        if n and n % 10000 == 0:
            print("... %d cycles" % n, file=sys.stderr, flush=True)
        cls, fen, moves = line.split("\t")
        iccs = moves.split()
        ff = [to_ffish(m) for m in iccs]
        ffish = ffish_verdict(fen, ff + ff)
        total[cls] += 1
        flags = None
        for j, judged in enumerate(answers):
            ours, ours_cn, detail = judged[n]
            if ours == "error" or "INCONSISTENT" in detail:
                problems.append("%s: %s: %s" % (args.judge[j], line, detail))
            if ours == ffish:
                agree[j][cls] += 1
                continue
            row = dict(cls=cls, fen=fen, moves=moves, ours=ours, chinese=ours_cn,
                       ffish=ffish, detail=detail)
            row["why"] = explain(row)
            kinds[j][(cls, row["why"] or "unexplained", ours, ffish)] += 1
            if j == len(answers) - 1:
                rows.append(row)
                if row["why"] is None:
                    unexplained.append(row)
        if n < args.cchess:
            flags = check_flags(fen, ff)
            legal, back, cflags = cchess_replay(fen, iccs)
            cc_checked += 1
            if not (legal and back and cflags == flags):
                cc_bad += 1
                problems.append("cchess: %s legal=%s back=%s flags=%s/%s"
                                % (line, legal, back, cflags, flags))
            pc = perpetual_check_loser(fen, cflags)
            if pc is not None:
                cc_pc += 1
                cc_pc_agree += answers[-1][n][0] == pc

    for j, name in enumerate(args.judge):
        print("judge %s\nclass      cycles   agree   rate" % name)
        for cls in sorted(total):
            print("%-9s %7d %7d  %6.2f %%" % (cls, total[cls], agree[j][cls],
                                              100.0 * agree[j][cls] / total[cls]))
        all_t, all_a = sum(total.values()), sum(agree[j].values())
        print("%-9s %7d %7d  %6.2f %%" % ("all", all_t, all_a, 100.0 * all_a / max(all_t, 1)))
        print("disagreements (class, reason, ours, fairy-stockfish): count")
        for k, v in sorted(kinds[j].items()):
            print("  %-9s %-36s ours=%-5s ffish=%-5s %6d" % (k[0], k[1], k[2], k[3], v))
        print()
    print("cchess: %d cycles replayed, %d differ in legality, return or checks; "
          "perpetual check by cchess's flags in %d, ours agrees in %d"
          % (cc_checked, cc_bad, cc_pc, cc_pc_agree))
    for p in problems[:20]:
        print("PROBLEM", p)
    if args.examples:
        with open(args.examples, "w", encoding="utf-8") as f:
            f.write("class\tfen\tmoves\tours\tffish\treason\tour_detail\n")
            for r in rows:
                f.write("\t".join([r["cls"], r["fen"], r["moves"], r["ours"], r["ffish"],
                                   r["why"] or "unexplained", r["detail"]]) + "\n")
    bad = problems or cc_pc != cc_pc_agree or (args.fail_unexplained and unexplained)
    if unexplained:
        print("\n%d unexplained disagreements, e.g.:" % len(unexplained))
        for r in unexplained[:10]:
            print("  %s\t%s\t%s\tours=%s ffish=%s (%s)"
                  % (r["cls"], r["fen"], r["moves"], r["ours"], r["ffish"], r["detail"]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
