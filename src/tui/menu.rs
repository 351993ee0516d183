//! The menu popups' data: a menu of choices filtered as the user types (units to place, owners,
//! attackers, new scenarios, scenario details). Nothing here draws or edits the scenario: the
//! app turns the chosen item into an [`dipsandbox_core::tools::edit::Edit`].

use dipsandbox_core::model::board::Unit;
use dipsandbox_core::model::map::{LocId, PowerId, ProvinceId, UnitKind};
use dipsandbox_core::model::scenario::Scenario;

/// What choosing a menu item does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Place this unit (replacing what stands there).
    Place(Unit),
    /// Set a supply centre's owner.
    Owner(ProvinceId, Option<PowerId>),
    /// Mark the unit in a province dislodged (by a unit from, by convoy) or put it back.
    Dislodge(ProvinceId, Option<(ProvinceId, bool)>),
    /// Put the carried unit down on this place (a coast, for a fleet).
    MoveTo(ProvinceId, LocId),
    /// Start a new scenario.
    New(NewKind),
    /// Start a new scenario on another map (by the name `--map` and scenario files use): its
    /// opening position, or an empty board when `empty`.
    NewOn {
        /// The map's name.
        map: String,
        /// An empty board rather than the opening.
        empty: bool,
    },
    /// Edit a field of the scenario's details.
    Field(Field),
    /// Shown but refused with this message (an army at sea, say), so the user learns why.
    Refused(String),
}

/// Where a new scenario starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewKind {
    /// The opening position (Spring of the map's first year).
    Opening,
    /// An empty board.
    Empty,
    /// A copy of the current scenario.
    Copy,
}

/// A text field of the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The title.
    Title,
    /// The description.
    Description,
    /// The source.
    Source,
    /// The phase, e.g. `Fall 1901 Retreat`.
    Phase,
}

impl Field {
    /// The label shown before the value.
    pub fn label(self) -> &'static str {
        match self {
            Field::Title => "title",
            Field::Description => "description",
            Field::Source => "source",
            Field::Phase => "phase",
        }
    }

    /// The field's current value.
    pub fn value(self, s: &Scenario) -> String {
        match self {
            Field::Title => s.title.clone(),
            Field::Description => s.description.clone(),
            Field::Source => s.source.clone(),
            Field::Phase => s.phase.to_string(),
        }
    }
}

/// One menu row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuItem {
    /// What is shown.
    pub label: String,
    /// What choosing it does.
    pub choice: Choice,
}

/// A menu popup: a title, its items and the filter typed so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Menu {
    /// The title.
    pub title: String,
    /// Every item.
    pub items: Vec<MenuItem>,
    /// The filter typed so far: every word must appear in a visible item's label.
    pub filter: String,
    /// The highlighted row among the visible items.
    pub row: usize,
}

impl Menu {
    /// A menu of items.
    pub fn new(title: impl Into<String>, items: Vec<MenuItem>) -> Menu {
        Menu {
            title: title.into(),
            items,
            filter: String::new(),
            row: 0,
        }
    }

    /// The items that match the filter.
    pub fn visible(&self) -> Vec<&MenuItem> {
        let words = words(&self.filter);
        self.items
            .iter()
            .filter(|i| matches(&words, &i.label))
            .collect()
    }

    /// The highlighted item.
    pub fn current(&self) -> Option<&MenuItem> {
        self.visible().get(self.row).copied()
    }

    /// Moves the highlight.
    pub fn move_by(&mut self, d: isize) {
        let n = self.visible().len() as isize;
        self.row = if n == 0 {
            0
        } else {
            (self.row as isize + d).clamp(0, n - 1) as usize
        };
    }

    /// Types into the filter.
    pub fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.row = 0;
    }

    /// Deletes the filter's last character.
    pub fn backspace(&mut self) {
        self.filter.pop();
        self.row = 0;
    }

    /// Clears the filter: every row is offered again.
    pub fn clear_filter(&mut self) {
        self.filter.clear();
        self.row = 0;
    }
}

/// The words of a filter, lower case.
pub fn words(filter: &str) -> Vec<String> {
    filter.split_whitespace().map(str::to_lowercase).collect()
}

/// Whether every word of a filter (from [`words`]) appears in a label, in any case.
pub fn matches(words: &[String], label: &str) -> bool {
    let l = label.to_lowercase();
    words.iter().all(|w| l.contains(w.as_str()))
}

/// The menu of units to place at a province: an army and a fleet (each coast) of every power
/// (and a neutral one on a map with neutral units); those that cannot stand there are listed
/// with the reason, and refused.
pub fn place_menu(s: &Scenario, p: ProvinceId, kind: UnitKind) -> Menu {
    place_menu_after(s, p, kind, None)
}

/// [`place_menu`], its highlight on the power that owns what stands or is owned there: the
/// unit's power, else the supply centre's owner (or home power); else on `last`, the power the
/// user placed a unit for last (placing a position power by power), else on the first power.
pub fn place_menu_after(
    s: &Scenario,
    p: ProvinceId,
    kind: UnitKind,
    last: Option<PowerId>,
) -> Menu {
    let map = &*s.map;
    let prov = map.province(p);
    let locs: Vec<LocId> = if kind == UnitKind::Fleet && prov.is_multi_coast() {
        prov.coasts.iter().map(|(_, l)| *l).collect()
    } else {
        vec![prov.main]
    };
    let mut items = Vec::new();
    // Neutral units are offered last, on a map that has them.
    let neutral = (!map.neutral_units.is_empty()).then_some(PowerId::NEUTRAL);
    for power in map.power_ids().chain(neutral) {
        for &loc in &locs {
            let unit = Unit { power, kind, loc };
            let label = format!(
                "{} {} {}",
                map.power(power).name,
                kind.letter(),
                map.loc_abbr(loc)
            );
            let choice = match dipsandbox_core::tools::edit::check_standing(map, &unit) {
                Ok(()) => Choice::Place(unit),
                Err(e) => Choice::Refused(e.0),
            };
            items.push(MenuItem { label, choice });
        }
    }
    // The highlight starts on the unit's owner there, else on the centre's owner (or home
    // power), else on the power last placed for.
    let standing = s
        .units
        .iter()
        .find(|u| map.province_of(u.loc) == p)
        .map(|u| u.power);
    let owner = if prov.supply_center {
        s.owners_or_home().get(p.0 as usize).copied().flatten()
    } else {
        None
    };
    let row = standing
        .or(owner)
        .or(prov.home_of)
        .or(last)
        .and_then(|w| {
            items
                .iter()
                .position(|i| matches!(&i.choice, Choice::Place(u) if u.power == w))
        })
        .unwrap_or(0);
    let what = if kind == UnitKind::Army {
        "an army"
    } else {
        "a fleet"
    };
    let mut m = Menu::new(format!("Place {what} in {}", prov.name), items);
    m.row = row;
    m
}
