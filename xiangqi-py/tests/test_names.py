"""The published names: distribution `xiangqi-rs`, module `xiangqi_rs`. PyPI's `xiangqi` is
another project that installs a module `xiangqi`; ours must install nothing under that name,
and its classes must name their own module (pickle and repr look classes up by it)."""

import importlib.metadata

import xiangqi_rs


def test_the_distribution_installs_only_its_own_module():
    files = importlib.metadata.files("xiangqi-rs")
    assert files, "no record of the installed files"
    tops = {f.parts[0] for f in files}
    assert "xiangqi" not in tops
    assert tops <= {"xiangqi_rs"} | {t for t in tops if t.endswith((".dist-info", ".pth"))}


def test_classes_name_their_module():
    for cls in (xiangqi_rs.Board, xiangqi_rs.Move, xiangqi_rs.Engine, xiangqi_rs.Game):
        assert cls.__module__ == "xiangqi_rs", cls
