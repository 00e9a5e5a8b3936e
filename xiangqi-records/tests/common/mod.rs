//! What each format keeps of a tree, for the round-trip tests.

use xiangqi_records::GameTree;

/// The tree as a format keeps it: NAGs only if `nags`; comments before a move only on
/// side lines' first moves and only if `keep_side_heads`, others joined to the comment
/// of the move before.
pub fn reduced(tree: &GameTree, nags: bool, keep_side_heads: bool) -> GameTree {
    let mut t = tree.clone();
    for n in t.preorder() {
        if !nags {
            t.node_mut(n).nags.clear();
        }
        let side_head = t
            .node(n)
            .parent()
            .is_some_and(|p| t.node(p).main_child() != Some(n));
        if keep_side_heads && side_head {
            continue;
        }
        let before = std::mem::take(&mut t.node_mut(n).starting_comment);
        if let (false, Some(p)) = (before.is_empty(), t.node(n).parent()) {
            let c = &mut t.node_mut(p).comment;
            if !c.is_empty() {
                c.push('\n');
            }
            c.push_str(&before);
        }
    }
    t
}

pub fn ubb_lines(tree: &GameTree) -> GameTree {
    let mut t = tree.clone();
    for n in t.preorder() {
        let node = t.node_mut(n);
        // `||` is a line break in UBB; the reader trims what results.
        node.comment = node.comment.replace("||", "\n").trim().to_string();
        node.starting_comment = node.starting_comment.replace("||", "\n").trim().to_string();
    }
    t
}
