//! Colours and text styles, with a monochrome variant for `NO_COLOR`.

use ratatui::style::{Color, Modifier, Style};

/// The styles every screen uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// Colours allowed (false when `NO_COLOR` is set): only bold/reverse/underline are used.
    pub color: bool,
}

/// Stall% from which a line counts as a high-stall line (the guide's threshold).
pub const HIGH_STALL_PCT: f64 = 20.0;

impl Theme {
    /// The theme the environment asks for: monochrome when `NO_COLOR` is set and not empty.
    pub fn from_env() -> Theme {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Theme { color: !no_color }
    }

    /// Colour theme.
    pub fn colored() -> Theme {
        Theme { color: true }
    }

    /// Monochrome theme.
    pub fn mono() -> Theme {
        Theme { color: false }
    }

    fn pick(&self, colored: Style, mono: Style) -> Style {
        if self.color {
            colored
        } else {
            mono
        }
    }

    /// Summary header text.
    pub fn header(&self) -> Style {
        self.pick(Style::new().fg(Color::Cyan), Style::new())
    }

    /// Header field names.
    pub fn label(&self) -> Style {
        self.pick(
            Style::new().fg(Color::Gray).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    /// The active tab title.
    pub fn tab_active(&self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::Black)
                .bg(Color::Cyan)
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        )
    }

    /// Column headings of tables.
    pub fn heading(&self) -> Style {
        self.pick(
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
        )
    }

    /// Secondary text (line numbers, hints).
    pub fn dim(&self) -> Style {
        self.pick(Style::new().fg(Color::DarkGray), Style::new())
    }

    /// The row or item under the cursor.
    pub fn cursor(&self) -> Style {
        self.pick(
            Style::new()
                .bg(Color::Indexed(237))
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::REVERSED),
        )
    }

    /// A line whose Stall% is `stall`: red from 20%, darker as the stall grows; `None` below
    /// the threshold. In monochrome, bold.
    pub fn stall(&self, stall: f64) -> Option<Style> {
        if stall.is_nan() || stall < HIGH_STALL_PCT {
            return None;
        }
        if !self.color {
            return Some(Style::new().add_modifier(Modifier::BOLD));
        }
        // 256-colour reds from light to dark.
        let (bg, fg) = match stall {
            s if s < 35.0 => (217, Color::Black),
            s if s < 50.0 => (203, Color::Black),
            s if s < 65.0 => (160, Color::White),
            s if s < 80.0 => (124, Color::White),
            _ => (88, Color::White),
        };
        Some(Style::new().bg(Color::Indexed(bg)).fg(fg))
    }

    /// Bars of timeline lane `lane`.
    pub fn bar(&self, lane: usize) -> Style {
        const COLORS: [Color; 6] = [
            Color::Green,
            Color::Blue,
            Color::Magenta,
            Color::Cyan,
            Color::Yellow,
            Color::LightBlue,
        ];
        self.pick(Style::new().fg(COLORS[lane % COLORS.len()]), Style::new())
    }

    /// The selected run or capture.
    pub fn selected(&self) -> Style {
        self.pick(
            Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
        )
    }

    /// Something got worse (compare view) or an error.
    pub fn bad(&self) -> Style {
        self.pick(
            Style::new().fg(Color::LightRed),
            Style::new().add_modifier(Modifier::BOLD),
        )
    }

    /// Something got better (compare view).
    pub fn good(&self) -> Style {
        self.pick(Style::new().fg(Color::LightGreen), Style::new())
    }

    /// Panel borders.
    pub fn border(&self) -> Style {
        self.pick(Style::new().fg(Color::DarkGray), Style::new())
    }
}
