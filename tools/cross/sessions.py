#!/usr/bin/env python3
"""Protocol sessions with a cross-built engine over pipes, as a GUI holds them: UCI, UCCI
and CECP, the default tablebase folder made on a first run and waited for by `isready`,
tables opened from a folder named by the GUI, and the end of input. tools/cross-check.sh
runs it; each failed expectation ends it with status 1 and the engine's last lines.

    sessions.py [--windows] [--first-run] --tables-path PATH -- COMMAND...
    sessions.py --fingerprint -- COMMAND...   # the net's evaluations, for comparing builds

COMMAND starts the engine (`wine xiangqi-engine.exe`, `qemu-aarch64 ... xiangqi-engine`).
--tables-path: a folder holding the starter set, as the engine must be told it (with
--windows a Windows path such as `C:\\xiangqi tables\\egtb`). --windows: lines end in CRLF,
as Windows GUIs write them, and the default folder must lie under %LOCALAPPDATA%.
--first-run: the default folder is empty, and the first isready must say it waits.
"""

import argparse
import queue
import subprocess
import sys
import threading
import time

# A lone chariot against the full defence (车对士象全): a tablebase draw.
CHARIOT_DRAW = "2bakab2/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"
# Generous for an emulator: the starter set takes seconds natively.
PATIENCE = 180.0


class Failed(Exception):
    """An expectation that did not hold."""


class Engine:
    """One engine process and the lines it wrote."""

    def __init__(self, command, crlf):
        self.crlf = crlf
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lines = queue.Queue()
        self.log = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        self.log.append("> " + line)
        self.proc.stdin.write((line + ("\r\n" if self.crlf else "\n")).encode("utf-8"))
        self.proc.stdin.flush()

    def until(self, pred, what, patience=PATIENCE):
        """Lines up to the first that satisfies pred (included)."""
        seen, deadline = [], time.monotonic() + patience
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise Failed(f"no {what} within {patience:.0f} s") from None
            if line is None:
                raise Failed(f"the output ended before {what}")
            self.log.append(line)
            seen.append(line)
            if pred(line):
                return seen

    def expect_exit(self, what, patience=30.0):
        try:
            code = self.proc.wait(timeout=patience)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise Failed(f"still running {patience:.0f} s after {what}") from None
        if code != 0:
            raise Failed(f"exit status {code} after {what}")


def field(line, key):
    words = line.split()
    return words[words.index(key) + 1] if key in words[:-1] else None


def check(cond, message, lines):
    if not cond:
        raise Failed(f"{message}: {lines[-8:]}")


def uci(args):
    """UCI: the default folder (a first run), then the tables from the GUI's path."""
    e = Engine(args.command, args.windows)
    e.send("uci")
    lines = e.until(lambda l: l == "uciok", "uciok")
    check(any(l.startswith("id name xiangqi-engine") for l in lines), "id name", lines)
    e.send("isready")
    lines = e.until(lambda l: l == "readyok", "readyok")
    if args.first_run:
        # The default folder was empty: the engine generates the set, and waits, saying so.
        check(any(l.startswith("info string waiting for the endgame tablebases") for l in lines),
              "no 'waiting for the endgame tablebases' on a first run", lines)
    ready = [l for l in lines if l.startswith("info string endgame tablebases ready: ")]
    if args.first_run:
        # A wait that was announced is also ended in words. Tables already in the folder
        # open within the engine's quiet second and nothing is said: then the draw with
        # tablebase hits below is the proof that they were attached.
        check(ready, "no 'tablebases ready' before readyok", lines)
    if args.windows and ready:
        check("\\AppData\\Local\\xiangqi\\egtb" in ready[0], "not under %LOCALAPPDATA%", ready)
    # The first search after isready already has the tables: the draw, with tablebase hits.
    e.send(f"position fen {CHARIOT_DRAW}")
    e.send("go depth 6")
    lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
    infos = [l for l in lines if l.startswith("info depth ")]
    check(infos and all(field(l, "cp") == "0" for l in infos), "not a draw", lines)
    check(all(int(field(l, "tbhits") or 0) > 0 for l in infos), "no tablebase hits", lines)
    # The GUI names a folder: a path with spaces (and backslashes on Windows).
    e.send(f"setoption name EGTBPath value {args.tables_path}")
    e.send("isready")
    lines = e.until(lambda l: l == "readyok", "readyok")
    check(any("endgame tablebases: " in l and "tables" in l and args.tables_path in l
              for l in lines), "EGTBPath not opened", lines)
    e.send(f"position fen {CHARIOT_DRAW}")
    e.send("go depth 4")
    lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
    check(any(int(field(l, "tbhits") or 0) > 0 for l in lines), "no hits from EGTBPath", lines)
    e.send("ucinewgame")
    e.send("position startpos moves h2e2 h9g7")
    e.send("go movetime 300")
    lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
    check(len(lines[-1].split()) >= 2, "no move", lines)
    e.send("quit")
    e.expect_exit("quit")


def ucci(args):
    """UCCI, as ElephantEye's GUIs speak it."""
    e = Engine(args.command, args.windows)
    e.send("ucci")
    e.until(lambda l: l == "ucciok", "ucciok")
    e.send(f"setoption egtbpaths {args.tables_path}")
    e.send("isready")
    e.until(lambda l: l == "readyok", "readyok")
    e.send("position startpos moves h2e2")
    e.send("go depth 6")
    lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
    check(any(l.startswith("info depth 6") for l in lines), "depth 6", lines)
    e.send(f"position fen {CHARIOT_DRAW}")
    e.send("go depth 4")
    lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
    # UCCI's info lines carry no tbhits: the draw score (not +6) shows the tables were used.
    infos = [l for l in lines if l.startswith("info depth ")]
    check(infos and all(field(l, "score") == "0" for l in infos), "egtbpaths: not a draw", lines)
    e.send("quit")
    e.until(lambda l: l == "bye", "bye")
    e.expect_exit("quit")


def cecp(args):
    """CECP (XBoard/WinBoard): a move from a position, ping, and the tables' path."""
    e = Engine(args.command, args.windows)
    e.send("xboard")
    e.send("protover 2")
    lines = e.until(lambda l: l == "feature done=1", "feature done=1")
    check(any('variants="xiangqi' in l or "variants=" in l for l in lines), "variants", lines)
    e.send(f"egtpath xiangqi {args.tables_path}")
    e.send("ping 1")
    lines = e.until(lambda l: l == "pong 1", "pong 1")
    check(any(l.startswith("# endgame tablebases: ") and args.tables_path in l for l in lines),
          "egtpath not opened", lines)
    e.send("new")
    e.send("variant xiangqi")
    e.send("force")
    e.send("sd 5")
    e.send("go")
    lines = e.until(lambda l: l.startswith("move "), "a move")
    e.send("ping 42")
    e.until(lambda l: l == "pong 42", "pong 42")
    e.send("quit")
    e.expect_exit("quit")


def closed_input(args):
    """A GUI that closes the engine's standard input (as it exits) ends the engine."""
    e = Engine(args.command, args.windows)
    e.send("uci")
    e.until(lambda l: l == "uciok", "uciok")
    e.send("go infinite")
    e.until(lambda l: l.startswith("info depth"), "a search")
    e.proc.stdin.close()
    e.expect_exit("closing its input (while searching)")


# Positions for the net's fingerprint: the start, a middlegame, an endgame.
FINGERPRINT = (
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
)


def fingerprint(args):
    """Prints the net's static evaluations and a depth-7 search (NNUE, one thread: node
    count, score, move) of a few positions, for comparing two builds line by line."""
    e = Engine(args.command, args.windows)
    e.send("uci")
    e.until(lambda l: l == "uciok", "uciok")
    e.send("setoption name UseEGTB value false")
    for fen in FINGERPRINT:
        e.send(f"position fen {fen}")
        e.send("eval")
        e.send("isready")
        for line in e.until(lambda l: l == "readyok", "readyok"):
            if line.startswith("Static evaluation, NNUE"):
                print(line)
        e.send("ucinewgame")
        e.send("go depth 7")
        lines = e.until(lambda l: l.startswith("bestmove"), "bestmove")
        last = [l for l in lines if l.startswith("info depth 7 ")][-1:]
        for line in last:
            print("depth 7 nodes", field(line, "nodes"), "cp", field(line, "cp"), lines[-1])
    e.send("quit")
    e.expect_exit("quit")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", action="store_true")
    parser.add_argument("--tables-path")
    parser.add_argument("--fingerprint", action="store_true")
    parser.add_argument("--first-run", action="store_true")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()
    if args.fingerprint:
        try:
            fingerprint(args)
        except Failed as failure:
            print(f"sessions.py: fingerprint: {failure}", file=sys.stderr)
            return 1
        return 0
    if not args.tables_path:
        parser.error("--tables-path is needed for the sessions")
    for session in (uci, ucci, cecp, closed_input):
        start = time.monotonic()
        try:
            session(args)
        except Failed as failure:
            print(f"sessions.py: {session.__name__}: {failure}", file=sys.stderr)
            return 1
        print(f"sessions.py: {session.__name__} passed ({time.monotonic() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
