//! The sets of endings, and the order they are generated in.

use crate::material::{Material, ATTACKERS};
use std::collections::BTreeSet;
use xiangqi_core::{Color, Role};

fn material(strong: &[(Role, u8)], weak: &[(Role, u8)]) -> Material {
    let mut counts = [[0u8; 7]; 2];
    for &(r, n) in strong {
        counts[0][r as usize] += n;
    }
    for &(r, n) in weak {
        counts[1][r as usize] += n;
    }
    Material::from_counts(counts)
}

/// Every advisor and elephant count a side can have: (advisors, elephants), 0–2 each.
fn defences() -> impl Iterator<Item = (u8, u8)> {
    (0..=2).flat_map(|a| (0..=2).map(move |e| (a, e)))
}

/// Set 1: one attacking piece (chariot, cannon, horse or pawn) against none, with every
/// combination of advisors and elephants on both sides (0–2 each): 4 × 9 × 9 = 324 tables.
/// It is closed under captures (a capture leads into another table of the set, or into a
/// material where nobody can attack, a draw by the rules).
pub fn set1() -> Vec<Material> {
    let mut out = Vec::new();
    for att in ATTACKERS {
        for (sa, se) in defences() {
            for (wa, we) in defences() {
                out.push(material(
                    &[(att, 1), (Role::Advisor, sa), (Role::Elephant, se)],
                    &[(Role::Advisor, wa), (Role::Elephant, we)],
                ));
            }
        }
    }
    out
}

/// Set 2 as this machine generates it: two attacking pieces (any pair: 车车, 车炮, 车马,
/// 车卒, 炮炮, 炮马, 炮卒, 马马, 马卒, 卒卒) without defenders of their own, against every
/// combination of advisors and elephants: 10 × 9 = 90 tables (and set 1's tables their
/// captures need). Larger combinations go through `generate` by name.
pub fn set2() -> Vec<Material> {
    let mut out = Vec::new();
    for (i, &a) in ATTACKERS.iter().enumerate() {
        for &b in &ATTACKERS[i..] {
            let strong: Vec<(Role, u8)> = if a == b {
                vec![(a, 2)]
            } else {
                vec![(a, 1), (b, 1)]
            };
            for (wa, we) in defences() {
                out.push(material(
                    &strong,
                    &[(Role::Advisor, wa), (Role::Elephant, we)],
                ));
            }
        }
    }
    out
}

/// Set 3: one attacking piece on each side (车对马, 马对卒, 炮对卒, 卒对卒 …: every pair of
/// chariot, horse, cannon and pawn), with advisors and elephants when the two sides
/// together have at most two of them: 6 × 15 + 4 × 9 = 126 tables (a pair of equal
/// pieces is its own mirror, so its defences count once up to colour). Captures lead
/// into set 1 and into smaller tables of this set. These tables obey the perpetual-check
/// rule ([`crate::Rules::Asian`]).
pub fn set3() -> Vec<Material> {
    let mut out = BTreeSet::new();
    for &a in &ATTACKERS {
        for &b in &ATTACKERS {
            for (sa, se) in defences() {
                for (wa, we) in defences() {
                    if sa + se + wa + we > 2 {
                        continue;
                    }
                    let m = material(
                        &[(a, 1), (Role::Advisor, sa), (Role::Elephant, se)],
                        &[(b, 1), (Role::Advisor, wa), (Role::Elephant, we)],
                    );
                    out.insert(m.canonical());
                }
            }
        }
    }
    out.into_iter().collect()
}

/// The endings `wanted` and every table their captures lead into, smallest first (a table
/// comes after every table it needs).
pub fn with_dependencies(wanted: &[Material]) -> Vec<Material> {
    let mut all = BTreeSet::new();
    let mut stack: Vec<Material> = wanted.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if m.is_dead_draw() || !all.insert(m) {
            continue;
        }
        for color in Color::ALL {
            for role in Role::ALL {
                if let Some(sub) = m.without(color, role) {
                    stack.push(sub.canonical());
                }
            }
        }
    }
    let mut v: Vec<Material> = all.into_iter().collect();
    v.sort_by_key(|m| (m.total(), m.to_string()));
    v
}
