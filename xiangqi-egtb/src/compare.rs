//! Another generator's values set beside ours, position by position.
//!
//! The other generator's tables are dumped as text, one position a line:
//! `FEN<TAB>VALUE[<TAB>NOTE...]`, where VALUE is `win N`, `loss N`, `draw`, `win rule` or
//! `loss rule` (N the distance to mate in plies for the side to move; `rule` a value that
//! generator decided by a perpetual-check rule rather than by mate). [`Comparison`] probes
//! every line in our tables and sorts each disagreement into a [`Class`]. The dumps of
//! FelicityEgtb's tables are made with its own probing code outside this repository
//! (docs/EGTB.md says how); `xiangqi-egtb compare` is the command.

use crate::{Dtm, Tablebase};
use std::fmt;
use xiangqi_core::Position;

/// A value as the other generator gives it, or as we give it, reduced to what both can say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// The side to move wins: in this many plies, or (`None`) by a perpetual-check rule.
    Win(Option<u16>),
    /// A draw.
    Draw,
    /// The side to move loses: in this many plies, or (`None`) by a perpetual-check rule.
    Loss(Option<u16>),
}

impl Value {
    /// Our value in the same terms: a rule value loses its rank.
    pub fn of(dtm: Dtm) -> Value {
        match dtm {
            Dtm::Win(n) => Value::Win(Some(n)),
            Dtm::Draw => Value::Draw,
            Dtm::Loss(n) => Value::Loss(Some(n)),
            Dtm::WinByRule(_) => Value::Win(None),
            Dtm::LossByRule(_) => Value::Loss(None),
        }
    }

    /// The column of the summary matrix this value falls in.
    fn label(self) -> Label {
        match self {
            Value::Win(Some(_)) => Label::Win,
            Value::Win(None) => Label::WinRule,
            Value::Draw => Label::Draw,
            Value::Loss(None) => Label::LossRule,
            Value::Loss(Some(_)) => Label::Loss,
        }
    }

    fn by_rule(self) -> bool {
        matches!(self, Value::Win(None) | Value::Loss(None))
    }
}

/// `win 12`, `loss rule`, `draw`: the dump's spelling.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (word, n) = match self {
            Value::Draw => return f.write_str("draw"),
            Value::Win(n) => ("win", n),
            Value::Loss(n) => ("loss", n),
        };
        match n {
            Some(n) => write!(f, "{word} {n}"),
            None => write!(f, "{word} rule"),
        }
    }
}

/// A value of a dump that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a value: `win N`, `loss N`, `draw`, `win rule` or `loss rule`",
            self.0
        )
    }
}

impl std::error::Error for ValueError {}

impl std::str::FromStr for Value {
    type Err = ValueError;

    fn from_str(text: &str) -> Result<Value, ValueError> {
        let bad = || ValueError(text.to_string());
        let text = text.trim();
        if text == "draw" {
            return Ok(Value::Draw);
        }
        let (word, n) = text.split_once(' ').ok_or_else(bad)?;
        let n = match n.trim() {
            "rule" => None,
            n => Some(n.parse::<u16>().map_err(|_| bad())?),
        };
        match word {
            "win" => Ok(Value::Win(n)),
            "loss" => Ok(Value::Loss(n)),
            _ => Err(bad()),
        }
    }
}

/// How a disagreement differs (in the order of [`Class::ALL`], which the counts index by).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// (a) We say win or loss by the perpetual-check rule, they say draw.
    WeRuleTheyDraw,
    /// (b) They say win or loss (by a rule or not), we say draw.
    TheyDecideWeDraw,
    /// (c) Win, draw or loss differ otherwise.
    ResultDiffers,
    /// (d) The same win, draw or loss; the distance differs (two distances, or a distance
    /// against a rule value).
    DistanceDiffers,
    /// We have no table for the position, or cannot read it as a legal position.
    NoAnswer,
}

impl Class {
    /// Every class, in the order of the report.
    pub const ALL: [Class; 5] = [
        Class::WeRuleTheyDraw,
        Class::TheyDecideWeDraw,
        Class::ResultDiffers,
        Class::DistanceDiffers,
        Class::NoAnswer,
    ];

    /// The short name used in reports and file names: `a`, `b`, `c`, `d`, `none`.
    pub fn short(self) -> &'static str {
        match self {
            Class::WeRuleTheyDraw => "a",
            Class::TheyDecideWeDraw => "b",
            Class::ResultDiffers => "c",
            Class::DistanceDiffers => "d",
            Class::NoAnswer => "none",
        }
    }

    /// What the class means, in words.
    pub fn describe(self) -> &'static str {
        match self {
            Class::WeRuleTheyDraw => "we: win/loss by rule, they: draw",
            Class::TheyDecideWeDraw => "they: win/loss (by rule or not), we: draw",
            Class::ResultDiffers => "win/draw/loss differ otherwise",
            Class::DistanceDiffers => "same win/draw/loss, distance differs",
            Class::NoAnswer => "no answer from us",
        }
    }

    /// The class of a disagreement between `theirs` and `ours` (`None`: no answer from us),
    /// or `None` when they agree.
    pub fn of(theirs: Value, ours: Option<Value>) -> Option<Class> {
        let Some(ours) = ours else {
            return Some(Class::NoAnswer);
        };
        if theirs == ours {
            return None;
        }
        let wdl = |v: Value| std::mem::discriminant(&v);
        Some(if ours.by_rule() && theirs == Value::Draw {
            Class::WeRuleTheyDraw
        } else if theirs != Value::Draw && ours == Value::Draw {
            Class::TheyDecideWeDraw
        } else if wdl(theirs) != wdl(ours) {
            Class::ResultDiffers
        } else {
            Class::DistanceDiffers
        })
    }
}

/// The columns of the summary matrix: our value and theirs each fall in one (in the order
/// of `LABELS`, which the matrix indexes by).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    Win,
    WinRule,
    Draw,
    LossRule,
    Loss,
    None,
}

const LABELS: [Label; 6] = [
    Label::Win,
    Label::WinRule,
    Label::Draw,
    Label::LossRule,
    Label::Loss,
    Label::None,
];

impl Label {
    fn name(self) -> &'static str {
        match self {
            Label::Win => "win",
            Label::WinRule => "win-rule",
            Label::Draw => "draw",
            Label::LossRule => "loss-rule",
            Label::Loss => "loss",
            Label::None => "none",
        }
    }
}

/// One disagreement: the line's position, both values and the dump's note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The position as the dump gives it.
    pub fen: String,
    /// Their value.
    pub theirs: Value,
    /// Ours, or `None` when we have no answer.
    pub ours: Option<Value>,
    /// Why we have no answer, when we have none.
    pub why: Option<String>,
    /// The dump's further columns, joined by spaces.
    pub note: String,
    /// Its class.
    pub class: Class,
}

/// A dump's line that is not `FEN<TAB>VALUE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// The line number, from 1.
    pub line: u64,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for LineError {}

/// The running comparison of one dump: counts by class, the matrix of their values against
/// ours, and the first examples of each class.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Positions compared.
    pub total: u64,
    counts: [u64; 5],
    matrix: [[u64; 6]; 6],
    distance_against_rule: u64,
    examples: Vec<Disagreement>,
    keep: usize,
    lines: u64,
}

impl Comparison {
    /// An empty comparison that keeps the first `examples` disagreements of each class.
    pub fn new(examples: usize) -> Comparison {
        Comparison {
            total: 0,
            counts: [0; 5],
            matrix: [[0; 6]; 6],
            distance_against_rule: 0,
            examples: Vec::new(),
            keep: examples,
            lines: 0,
        }
    }

    /// Compare one line of a dump (blank lines are skipped); the disagreement, if any.
    pub fn line(&mut self, tb: &Tablebase, line: &str) -> Result<Option<Disagreement>, LineError> {
        self.lines += 1;
        let line = line.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            return Ok(None);
        }
        let mut cols = line.split('\t');
        let fen = cols.next().unwrap_or_default();
        let bad = |message: String| LineError {
            line: self.lines,
            message,
        };
        let theirs: Value = cols
            .next()
            .ok_or_else(|| bad("no value after the FEN (columns are separated by tabs)".into()))?
            .parse()
            .map_err(|e: ValueError| bad(e.to_string()))?;
        let note = cols.collect::<Vec<_>>().join(" ");
        let (ours, why) = match Position::from_fen(fen) {
            Err(e) => (None, Some(e.to_string())),
            Ok(pos) => match tb.probe_dtm(&pos) {
                Ok(Some(d)) => (Some(Value::of(d)), None),
                Ok(None) => (None, Some("no table".to_string())),
                Err(e) => (None, Some(e.to_string())),
            },
        };
        Ok(self.add(fen, theirs, ours, why, note))
    }

    /// Count one position whose values are known; the disagreement, if any.
    pub fn add(
        &mut self,
        fen: &str,
        theirs: Value,
        ours: Option<Value>,
        why: Option<String>,
        note: String,
    ) -> Option<Disagreement> {
        self.total += 1;
        let col = ours.map_or(Label::None, Value::label);
        self.matrix[theirs.label() as usize][col as usize] += 1;
        let class = Class::of(theirs, ours)?;
        let k = class as usize;
        self.counts[k] += 1;
        if class == Class::DistanceDiffers && (theirs.by_rule() || ours.is_some_and(Value::by_rule))
        {
            self.distance_against_rule += 1;
        }
        let d = Disagreement {
            fen: fen.to_string(),
            theirs,
            ours,
            why,
            note,
            class,
        };
        if self.counts[k] <= self.keep as u64 {
            self.examples.push(d.clone());
        }
        Some(d)
    }

    /// Disagreements of one class.
    pub fn count(&self, class: Class) -> u64 {
        self.counts[class as usize]
    }

    /// Disagreements of every class.
    pub fn disagreements(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The report: a line of counts, the matrix of their values (rows) against ours
    /// (columns), and each class with its first examples.
    pub fn report(&self, name: &str) -> String {
        use fmt::Write;
        let mut s = String::new();
        let agree = self.total - self.disagreements();
        let counts: Vec<String> = Class::ALL
            .iter()
            .map(|&c| format!("{}: {}", c.short(), self.count(c)))
            .collect();
        let _ = writeln!(
            s,
            "{name}: {} positions, {agree} agree; {}",
            self.total,
            counts.join(", ")
        );
        let used = |i: usize, rows: bool| {
            (0..6).any(|j| {
                if rows {
                    self.matrix[i][j] > 0
                } else {
                    self.matrix[j][i] > 0
                }
            })
        };
        let cols: Vec<usize> = (0..6).filter(|&j| used(j, false)).collect();
        let _ = write!(s, "    theirs \\ ours  ");
        for &j in &cols {
            let _ = write!(s, "{:>12}", LABELS[j].name());
        }
        let _ = writeln!(s);
        for i in (0..6).filter(|&i| used(i, true)) {
            let _ = write!(s, "    {:<15}", LABELS[i].name());
            for &j in &cols {
                let _ = write!(s, "{:>12}", self.matrix[i][j]);
            }
            let _ = writeln!(s);
        }
        for class in Class::ALL {
            let n = self.count(class);
            if n == 0 {
                continue;
            }
            let extra = if class == Class::DistanceDiffers {
                format!(
                    " (two distances: {}, a distance against a rule value: {})",
                    n - self.distance_against_rule,
                    self.distance_against_rule
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "  class {}, {}: {n}{extra}",
                class.short(),
                class.describe()
            );
            for d in self.examples.iter().filter(|d| d.class == class) {
                let _ = writeln!(s, "    {}", d.line());
            }
        }
        s
    }
}

impl Disagreement {
    /// One line: the position, their value (with the note), ours (or why we have none).
    pub fn line(&self) -> String {
        let note = if self.note.is_empty() {
            String::new()
        } else {
            format!(" ({})", self.note)
        };
        let ours = match (self.ours, &self.why) {
            (Some(v), _) => v.to_string(),
            (None, Some(why)) => format!("none: {why}"),
            (None, None) => "none".to_string(),
        };
        format!("{}: theirs {}{note}, ours {ours}", self.fen, self.theirs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_and_print_back() {
        for text in ["win 12", "loss 0", "draw", "win rule", "loss rule"] {
            let v: Value = text.parse().unwrap();
            assert_eq!(v.to_string(), text);
        }
        for bad in ["", "win", "won 3", "win -1", "win 3x", "draw 2"] {
            assert!(bad.parse::<Value>().is_err(), "{bad}");
        }
    }

    #[test]
    fn classes_as_documented() {
        use Value::*;
        assert_eq!(Class::of(Win(Some(3)), Some(Win(Some(3)))), None);
        assert_eq!(
            Class::of(Draw, Some(Win(None))),
            Some(Class::WeRuleTheyDraw)
        );
        assert_eq!(
            Class::of(Loss(None), Some(Draw)),
            Some(Class::TheyDecideWeDraw)
        );
        assert_eq!(
            Class::of(Win(Some(3)), Some(Draw)),
            Some(Class::TheyDecideWeDraw)
        );
        assert_eq!(
            Class::of(Draw, Some(Loss(Some(2)))),
            Some(Class::ResultDiffers)
        );
        assert_eq!(
            Class::of(Win(Some(3)), Some(Loss(Some(2)))),
            Some(Class::ResultDiffers)
        );
        assert_eq!(
            Class::of(Win(Some(3)), Some(Win(Some(5)))),
            Some(Class::DistanceDiffers)
        );
        assert_eq!(
            Class::of(Win(None), Some(Win(Some(5)))),
            Some(Class::DistanceDiffers)
        );
        assert_eq!(Class::of(Draw, None), Some(Class::NoAnswer));
    }

    #[test]
    fn counts_examples_and_matrix() {
        let tb = Tablebase::empty();
        let mut c = Comparison::new(1);
        // No table: every line is "no answer", and only the first is kept as an example.
        let fen = "3k5/9/9/9/R8/9/9/9/9/4K4 w - - 0 1";
        assert!(c.line(&tb, &format!("{fen}\twin 1")).unwrap().is_some());
        assert!(c
            .line(&tb, &format!("{fen}\twin 1\tnote"))
            .unwrap()
            .is_some());
        assert!(c.line(&tb, "").unwrap().is_none());
        let err = c.line(&tb, fen).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(c.line(&tb, &format!("{fen}\twin x")).is_err());
        assert_eq!(c.total, 2);
        assert_eq!(c.count(Class::NoAnswer), 2);
        let report = c.report("dump");
        assert!(report.contains("dump: 2 positions, 0 agree"), "{report}");
        assert!(report.contains("none: no table"), "{report}");
        assert_eq!(report.matches("theirs win 1").count(), 1, "{report}");
        // Known values on both sides.
        c.add("x", Value::Draw, Some(Value::Draw), None, String::new());
        c.add(
            "y",
            Value::Draw,
            Some(Value::Win(None)),
            None,
            String::new(),
        );
        assert_eq!(c.total, 4);
        assert_eq!(c.disagreements(), 3);
        assert_eq!(c.count(Class::WeRuleTheyDraw), 1);
    }
}
