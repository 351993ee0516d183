//! Positions on the board: units, phases, supply-centre ownership.

use std::fmt;

use crate::model::error::quoted;
use crate::model::map::{LocId, Map, PowerId, ProvinceId, UnitKind};

/// A unit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unit {
    /// Owner.
    pub power: PowerId,
    /// Army or fleet.
    pub kind: UnitKind,
    /// Where it stands (a coast location for fleets on two-coast provinces).
    pub loc: LocId,
}

impl Unit {
    /// `A Paris`, `F Spain(nc)`.
    pub fn describe(&self, map: &Map) -> String {
        format!("{} {}", self.kind.letter(), map.loc_name(self.loc))
    }

    /// `English F London`.
    pub fn describe_owned(&self, map: &Map) -> String {
        format!("{} {}", map.power(self.power).adjective, self.describe(map))
    }
}

/// A unit dislodged in the preceding movement phase, waiting to retreat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dislodged {
    /// The unit, where it stood.
    pub unit: Unit,
    /// Where the unit that dislodged it came from.
    pub attacker_from: ProvinceId,
    /// Whether the attacker came by convoy (DATC 4.A.5).
    pub by_convoy: bool,
}

/// Season of a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Season {
    /// Spring.
    Spring,
    /// Fall (autumn).
    Fall,
    /// Winter (adjustments).
    Winter,
}

/// Kind of phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhaseKind {
    /// Orders are moves, supports, convoys, holds.
    Movement,
    /// Dislodged units retreat or disband.
    Retreat,
    /// Builds and removals.
    Adjustment,
}

/// A phase of the game, e.g. Spring 1901 Movement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Phase {
    /// Season.
    pub season: Season,
    /// Year.
    pub year: i32,
    /// Movement, retreat or adjustment.
    pub kind: PhaseKind,
}

impl Phase {
    /// The first year a phase may have ([`crate::base::calendar::FIRST_YEAR`]).
    pub const FIRST_YEAR: i32 = crate::base::calendar::FIRST_YEAR;
    /// The last year a phase may have: [`Phase::parse`] refuses a later one, and the turn cycle
    /// does not go past its Winter (`crate::tools::turn::advance` says so instead of wrapping).
    pub const LAST_YEAR: i32 = crate::base::calendar::LAST_YEAR;

    /// The year after this phase's, if it is not past [`Phase::LAST_YEAR`].
    pub fn next_year(&self) -> Option<i32> {
        self.year.checked_add(1).filter(|y| *y <= Phase::LAST_YEAR)
    }

    /// Parses `Spring 1901 Movement`, `Fall 1901 Retreat`, `Winter 1901 Adjustment`
    /// (also `Autumn`, `Retreats`, `Adjustments`, `Builds`, a comma after the year, and the kind
    /// in brackets as jDip writes it: `Spring 1901 (Movement)`). The year is a number from
    /// [`Phase::FIRST_YEAR`] to [`Phase::LAST_YEAR`].
    pub fn parse<'a>(s: &'a str) -> Result<Phase, String> {
        // Words between white space and commas: found by bytes in ASCII text (as phases are
        // written), by characters otherwise; the same words either way. Three are wanted.
        let mut words: [&str; 3] = [""; 3];
        let mut n = 0;
        let mut add = |w: &'a str| {
            if let Some(slot) = words.get_mut(n) {
                *slot = w;
            }
            n += 1;
        };
        if s.is_ascii() {
            let b = s.as_bytes();
            let sep = |i: usize| {
                b.get(i)
                    .is_some_and(|&c| c.is_ascii_whitespace() || b",()[]\x0b".contains(&c))
            };
            let mut i = 0;
            while i < b.len() {
                while sep(i) {
                    i += 1;
                }
                let start = i;
                while i < b.len() && !sep(i) {
                    i += 1;
                }
                if i > start {
                    // ASCII: every byte position is a character boundary.
                    add(s.get(start..i).unwrap_or_default());
                }
            }
        } else {
            s.split(|c: char| c.is_whitespace() || ",()[]".contains(c))
                .filter(|w| !w.is_empty())
                .for_each(&mut add);
        }
        let expected = "expected \"<Spring|Fall|Winter> <year> <Movement|Retreat|Adjustment>\", e.g. \"Spring 1901 Movement\"";
        let ([season, year, kind], 3) = (words, n) else {
            return Err(format!("phase {}: {expected}", quoted(s)));
        };
        let is = |w: &str, names: &[&str]| names.iter().any(|n| w.eq_ignore_ascii_case(n));
        let season = if is(season, &["spring"]) {
            Season::Spring
        } else if is(season, &["fall", "autumn"]) {
            Season::Fall
        } else if is(season, &["winter"]) {
            Season::Winter
        } else {
            let w = season.to_ascii_lowercase();
            return Err(format!(
                "phase {}: unknown season {}; {expected}",
                quoted(s),
                quoted(&w)
            ));
        };
        let year: i32 = match year.parse::<i32>() {
            Ok(y) if (Phase::FIRST_YEAR..=Phase::LAST_YEAR).contains(&y) => y,
            // All digits (with a sign): a number, out of the range.
            _ if year
                .trim_start_matches(['-', '+'])
                .bytes()
                .all(|b| b.is_ascii_digit())
                && year.bytes().any(|b| b.is_ascii_digit()) =>
            {
                return Err(format!(
                    "phase {}: year {} is out of range; a year is from {} to {}",
                    quoted(s),
                    crate::base::text::cut(year),
                    Phase::FIRST_YEAR,
                    Phase::LAST_YEAR
                ));
            }
            _ => {
                let year = year.to_ascii_lowercase();
                return Err(format!(
                    "phase {}: year {} is not a number; {expected}",
                    quoted(s),
                    quoted(&year)
                ));
            }
        };
        let kind = if is(kind, &["movement", "moves", "move"]) {
            PhaseKind::Movement
        } else if is(kind, &["retreat", "retreats"]) {
            PhaseKind::Retreat
        } else if is(kind, &["adjustment", "adjustments", "builds", "build"]) {
            PhaseKind::Adjustment
        } else {
            let w = kind.to_ascii_lowercase();
            return Err(format!(
                "phase {}: unknown phase kind {}; {expected}",
                quoted(s),
                quoted(&w)
            ));
        };
        if (season == Season::Winter) != (kind == PhaseKind::Adjustment)
            && kind != PhaseKind::Adjustment
        {
            return Err(format!(
                "phase {}: Winter has only the adjustment phase; expected \"Winter {year} Adjustment\"",
                quoted(s)
            ));
        }
        Ok(Phase { season, year, kind })
    }
}

impl Phase {
    /// The season's and the kind's words: `("Spring", "Movement")`.
    fn words(&self) -> (&'static str, &'static str) {
        let season = match self.season {
            Season::Spring => "Spring",
            Season::Fall => "Fall",
            Season::Winter => "Winter",
        };
        let kind = match self.kind {
            PhaseKind::Movement => "Movement",
            PhaseKind::Retreat => "Retreat",
            PhaseKind::Adjustment => "Adjustment",
        };
        (season, kind)
    }

    /// The short form game records use: `S1901M`, `F1901R`, `W1901A` (the season's and the
    /// kind's initials around the year).
    pub fn short(&self) -> String {
        let (season, kind) = self.words();
        let initial = |w: &str| w.chars().next().unwrap_or('?');
        format!("{}{}{}", initial(season), self.year, initial(kind))
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (season, kind) = self.words();
        write!(f, "{season} {} {kind}", self.year)
    }
}
