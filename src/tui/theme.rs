//! Colour is meaning: one colour per power, a fixed set for verdicts and decision states.
//! With `NO_COLOR` set, every style keeps its modifiers (bold, reversed, underlined) and drops
//! its colours, and glyphs carry the meaning.

use ratatui::style::{Color, Modifier, Style};

use dipsandbox_core::engine::Verdict;

/// The styles the views use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used at all.
    pub color: bool,
}

const POWER_COLORS: [Color; 7] = [
    Color::Red,          // Austria
    Color::Blue,         // England
    Color::LightCyan,    // France
    Color::Gray,         // Germany
    Color::Green,        // Italy
    Color::LightMagenta, // Russia
    Color::Yellow,       // Turkey
];

impl Default for Theme {
    fn default() -> Self {
        Theme {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }
}

impl Theme {
    /// A theme with colours on or off.
    pub fn new(color: bool) -> Theme {
        Theme { color }
    }

    fn fg(&self, c: Color) -> Style {
        if self.color {
            Style::new().fg(c)
        } else {
            Style::new()
        }
    }

    fn bg(&self, c: Color) -> Style {
        if self.color {
            Style::new().bg(c)
        } else {
            Style::new()
        }
    }

    /// A power's colour (by its index on the map); the index of
    /// [`PowerId::NEUTRAL`](dipsandbox_core::model::map::PowerId::NEUTRAL) gives
    /// [`Theme::neutral_unit`].
    pub fn power(&self, index: usize) -> Style {
        if index == usize::from(dipsandbox_core::model::map::PowerId::NEUTRAL.0) {
            return self.neutral_unit();
        }
        match POWER_COLORS.get(index % POWER_COLORS.len()) {
            Some(&c) => self.fg(c),
            None => Style::default(),
        }
    }

    /// A neutral unit: white and underlined (the underline stays under `NO_COLOR`, so a
    /// neutral unit is told from a power's without colour).
    pub fn neutral_unit(&self) -> Style {
        self.fg(Color::White).add_modifier(Modifier::UNDERLINED)
    }

    /// A neutral supply centre.
    pub fn neutral(&self) -> Style {
        self.fg(Color::White).add_modifier(Modifier::DIM)
    }

    /// A verdict's glyph and style.
    pub fn verdict(&self, v: Option<Verdict>) -> (&'static str, Style) {
        match v {
            Some(Verdict::Succeeds) => ("✓", self.fg(Color::Green).add_modifier(Modifier::BOLD)),
            Some(Verdict::Fails) => ("✗", self.fg(Color::Red).add_modifier(Modifier::BOLD)),
            Some(Verdict::Illegal) => ("!", self.fg(Color::Magenta).add_modifier(Modifier::BOLD)),
            Some(Verdict::Void) => ("∅", self.fg(Color::DarkGray)),
            None => ("·", self.fg(Color::Yellow)),
        }
    }

    /// A move that succeeded (on the board).
    pub fn moved(&self) -> Style {
        self.fg(Color::Green).add_modifier(Modifier::BOLD)
    }

    /// A move that failed (on the board).
    pub fn failed(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::CROSSED_OUT)
    }

    /// A province left empty by a standoff.
    pub fn standoff(&self) -> Style {
        self.fg(Color::LightRed).add_modifier(Modifier::BOLD)
    }

    /// The selected province or row.
    pub fn selected(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    /// The target of the selected order.
    pub fn target(&self) -> Style {
        self.bg(Color::Yellow)
            .fg(if self.color {
                Color::Black
            } else {
                Color::Reset
            })
            .add_modifier(Modifier::UNDERLINED)
    }

    /// The unit the selected order supports or convoys.
    pub fn helped(&self) -> Style {
        self.bg(Color::Cyan)
            .fg(if self.color {
                Color::Black
            } else {
                Color::Reset
            })
            .add_modifier(Modifier::UNDERLINED)
    }

    /// A unit named in the selected order's reason (the one that cut, bounced or dislodged it).
    pub fn cause(&self) -> Style {
        self.bg(Color::Magenta)
            .fg(if self.color {
                Color::White
            } else {
                Color::Reset
            })
            .add_modifier(Modifier::UNDERLINED | Modifier::ITALIC)
    }

    /// Background tint of the selected province's region.
    pub fn region(&self) -> Style {
        self.bg(Color::Rgb(40, 40, 60))
    }

    /// Background of sea regions on the board.
    pub fn sea_region(&self) -> Style {
        self.bg(Color::Rgb(10, 30, 60))
    }

    /// Sea provinces' labels.
    pub fn sea(&self) -> Style {
        self.fg(Color::Blue)
    }

    /// Land border art.
    pub fn land(&self) -> Style {
        self.fg(Color::DarkGray)
    }

    /// A decision still open.
    pub fn open(&self) -> Style {
        self.fg(Color::Yellow)
    }

    /// A settled decision.
    pub fn settled(&self) -> Style {
        self.fg(Color::Green)
    }

    /// A member of a cycle.
    pub fn cycle(&self) -> Style {
        self.fg(Color::LightMagenta).add_modifier(Modifier::BOLD)
    }

    /// A value forced by a backup rule.
    pub fn forced(&self) -> Style {
        self.fg(Color::LightRed)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// The stepper's cursor row.
    pub fn cursor(&self) -> Style {
        self.bg(Color::Blue)
            .add_modifier(Modifier::BOLD | Modifier::REVERSED)
    }

    /// Secondary text.
    pub fn dim(&self) -> Style {
        Style::new().add_modifier(Modifier::DIM)
    }

    /// Headings and the focused panel's border.
    pub fn focus(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// An error message.
    pub fn error(&self) -> Style {
        self.fg(Color::LightRed).add_modifier(Modifier::BOLD)
    }

    /// A success message.
    pub fn ok(&self) -> Style {
        self.fg(Color::Green)
    }

    /// A difference between two rule sets.
    pub fn differs(&self) -> Style {
        self.bg(Color::Rgb(90, 60, 0)).add_modifier(Modifier::BOLD)
    }
}
