"""The type stubs name exactly what the native module has, class by class."""

import ast
from pathlib import Path

import xiangqi_rs as xiangqi
from xiangqi_rs import _xiangqi

STUB = Path(xiangqi.__file__).with_name("_xiangqi.pyi")


def stub_names():
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            classes[node.name] = {
                n.name if isinstance(n, ast.FunctionDef) else n.target.id
                for n in node.body
                if isinstance(n, ast.FunctionDef) or isinstance(n, ast.AnnAssign)
            }
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top - {"MoveLike"}, classes


def public(obj):
    return {n for n in dir(obj) if not n.startswith("_")}


def test_stub_is_shipped():
    assert STUB.exists() and STUB.with_name("py.typed").exists()


def test_module_names_match():
    top, _ = stub_names()
    assert top - {"__version__"} == public(_xiangqi)


def test_class_members_match():
    _, classes = stub_names()
    for name, members in classes.items():
        cls = getattr(_xiangqi, name)
        if issubclass(cls, Exception):
            continue
        dunder_free = {m for m in members if not m.startswith("_")}
        assert dunder_free == public(cls), name
