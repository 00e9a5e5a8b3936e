//! The search's numeric constants (margins, reductions, history bonuses), gathered in one
//! place so that a tuner can move them: [`Tunables`] holds their values, [`Tunables::SPECS`]
//! their names, defaults and the ranges a tuner may explore. The engine's `tune` feature shows
//! them as UCI options, the match example takes them as `tune.NAME=VALUE`, and
//! `tools/spsa` moves them by self-play (SPSA, as fishtest and OpenBench do).

/// One tunable constant: its name, default, the range a tuner keeps it in, and the size of
/// the step a tuner perturbs it by at the end of a run (SPSA's `c_end`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TunableSpec {
    /// The field's name, also the UCI option's and the match key's (`tune.NAME`).
    pub name: &'static str,
    /// The value the search uses unless told otherwise.
    pub default: i32,
    /// The smallest value a tuner may try.
    pub min: i32,
    /// The largest value a tuner may try.
    pub max: i32,
    /// The perturbation at the end of a tuning run: about the change that shows in a few
    /// thousand games.
    pub step: i32,
}

macro_rules! tunables {
    ($( $(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal..=$max:literal, $step:literal; )*) => {
        /// The search's numeric constants. [`Tunables::default`] is the committed set.
        ///
        /// ```
        /// use xiangqi_search::Tunables;
        /// let mut t = Tunables::default();
        /// t.set("rfp_margin", 100).unwrap();
        /// assert_eq!(t.rfp_margin, 100);
        /// assert!(t.set("rfp_margin", 100_000).is_err(), "outside its range");
        /// assert!(t.set("no_such_constant", 1).is_err());
        /// ```
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub struct Tunables {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl Default for Tunables {
            fn default() -> Tunables {
                Tunables { $( $name: $default, )* }
            }
        }

        impl Tunables {
            /// Every constant with its default, range and step, in declaration order.
            pub const SPECS: &'static [TunableSpec] = &[
                $( TunableSpec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }, )*
            ];

            /// The value of the constant called `name`, if there is one.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// Sets the constant called `name` to `value`.
            ///
            /// # Errors
            /// An unknown name, or a value outside the constant's range (a tuner's typo
            /// would otherwise give a search that loses every game, silently).
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
                let spec = Self::SPECS.iter().find(|s| s.name == name).ok_or_else(|| {
                    format!(
                        "unknown search constant `{name}` (known: {})",
                        Self::SPECS.iter().map(|s| s.name).collect::<Vec<_>>().join(", ")
                    )
                })?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(format!(
                        "{name}={value} is outside its range {}..={}",
                        spec.min, spec.max
                    ));
                }
                match name {
                    $( stringify!($name) => self.$name = value, )*
                    _ => unreachable!("every spec names a field"),
                }
                Ok(())
            }
        }
    };
}

tunables! {
    /// Reverse futility: the margin per ply of depth.
    rfp_margin: 90, 40..=200, 8;
    /// Reverse futility: the deepest node it applies at.
    rfp_depth: 7, 3..=12, 1;
    /// Null move: the reduction's constant part.
    nmp_base: 3, 2..=5, 1;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_depth_div: 4, 2..=8, 1;
    /// Null move: one more ply of reduction per this many centipawns above beta (at most 3).
    nmp_eval_div: 200, 80..=400, 16;
    /// Futility pruning of quiet moves: the margin's constant part.
    futility_base: 120, 40..=300, 10;
    /// Futility pruning of quiet moves: the margin per ply of depth.
    futility_per_depth: 110, 50..=250, 8;
    /// Losing captures are pruned at low depth when they lose more than this per ply.
    see_capture_margin: 90, 30..=200, 8;
    /// Late move pruning: the move count's constant part (`(base + depth²)`, halved when
    /// not improving).
    lmp_base: 3, 1..=8, 1;
    /// Quiet moves' reduction: one ply less per this much history (with the continuation
    /// histories; half of it without them).
    lmr_history_div: 12_000, 4_000..=30_000, 800;
    /// History bonus per depth² after a cutoff.
    history_bonus_mult: 16, 4..=40, 2;
    /// The largest history bonus.
    history_bonus_max: 1_600, 400..=4_000, 120;
    /// Singular extensions: the shallowest node that tries one.
    singular_depth: 7, 4..=10, 1;
    /// Singular extensions: the verification's bound is the table's score less this many
    /// centipawns per ply of depth.
    singular_beta_mult: 2, 1..=6, 1;
    /// Singular extensions: two plies when the other moves fail this far below the bound.
    singular_double_margin: 30, 0..=120, 6;
    /// ProbCut: the margin above beta a capture's shallow search must beat.
    probcut_margin: 200, 80..=400, 15;
    /// ProbCut: the shallowest node that tries it.
    probcut_depth: 5, 3..=10, 1;
    /// Aspiration windows: the first half-width in centipawns.
    aspiration_delta: 25, 8..=60, 3;
    /// Quiescence delta pruning: a capture is skipped when even this much more than the
    /// victim's value would not reach alpha.
    qs_delta_margin: 200, 50..=400, 15;
    /// Razoring: the margin below alpha at depth 1 is `base + per_depth2`, growing with
    /// the square of the depth.
    razor_base: 300, 100..=800, 25;
    /// Razoring: see `razor_base`.
    razor_per_depth2: 200, 50..=500, 15;
    /// History pruning: a quiet move is dropped at depth `d` ≤ 4 when its history (with
    /// the continuation histories) is below `-margin × d`.
    history_prune_margin: 4_000, 1_000..=12_000, 300;
    /// `lmr_deeper`: the re-search is a ply deeper when the reduced score beat the best so
    /// far by this much plus 2 per ply of depth.
    lmr_deeper_margin: 40, 10..=120, 5;
    /// Time management: the thinking time is scaled by `(base - slope × share) / 100`,
    /// `share` being the best move's fraction of the last iteration's nodes.
    tm_share_base: 190, 120..=260, 8;
    /// Time management: see `tm_share_base`.
    tm_share_slope: 150, 60..=240, 8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_within_their_ranges_and_named_once() {
        let t = Tunables::default();
        for (i, s) in Tunables::SPECS.iter().enumerate() {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert_eq!(t.get(s.name), Some(s.default), "{}", s.name);
            assert!(s.step > 0 && s.step <= s.max - s.min, "{}", s.name);
            assert!(
                Tunables::SPECS[..i].iter().all(|o| o.name != s.name),
                "{} twice",
                s.name
            );
        }
    }

    #[test]
    fn set_changes_only_its_own_field() {
        for s in Tunables::SPECS {
            let mut t = Tunables::default();
            t.set(s.name, s.max).unwrap();
            for o in Tunables::SPECS {
                let want = if o.name == s.name { s.max } else { o.default };
                assert_eq!(
                    t.get(o.name),
                    Some(want),
                    "setting {} moved {}",
                    s.name,
                    o.name
                );
            }
            assert!(t.set(s.name, s.min - 1).is_err());
        }
    }
}
