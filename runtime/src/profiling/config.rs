//! Profiling configuration from the environment, read the way Intel's FPGA runtime reads it.
//!
//! | variable | meaning |
//! | --- | --- |
//! | `ACL_RUNTIME_PROFILING_ACTIVE=1` | write the profile: programs, kernel runs with counters, snapshots, autorun captures |
//! | `ACL_PROFILE_TIMER=1` | also record memory transfers; on its own (without the variable above) it writes kernel runs without counters and transfers |
//! | `ACL_PROFILE_START_CYCLE=N` | count only from device cycle N (since host start) |
//! | `ACL_PROFILE_STOP_CYCLE=N` | count only up to device cycle N |
//! | `FPGACL_PROFILE_OUT=path` | where to write (default `./profile.mon`) |
//!
//! Boolean variables accept `1`/`0` (and `true`/`false`, `yes`/`no`, `on`/`off`, any case;
//! empty = unset). An invalid value is reported once on stderr and ignored (treated as unset);
//! it never stops the host.

use std::path::PathBuf;

/// Default output file, relative to the host's working directory.
pub const DEFAULT_OUTPUT: &str = "profile.mon";

/// Environment variable names.
pub mod var {
    /// Turns profile writing on (Intel).
    pub const ACTIVE: &str = "ACL_RUNTIME_PROFILING_ACTIVE";
    /// Adds memory transfers, and kernel runs without counters (Intel).
    pub const TIMER: &str = "ACL_PROFILE_TIMER";
    /// First device cycle of the counting window (Intel).
    pub const START_CYCLE: &str = "ACL_PROFILE_START_CYCLE";
    /// Last device cycle of the counting window (Intel).
    pub const STOP_CYCLE: &str = "ACL_PROFILE_STOP_CYCLE";
    /// Output path (fpgacl).
    pub const OUT: &str = "FPGACL_PROFILE_OUT";
}

/// What the profiling session records, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileConfig {
    /// `ACL_RUNTIME_PROFILING_ACTIVE`: programs, kernel runs with counters, snapshots, captures.
    pub active: bool,
    /// `ACL_PROFILE_TIMER`: memory transfers (and kernel runs, without counters when `active`
    /// is off).
    pub timer: bool,
    /// Counting window in device cycles since host start, both ends inclusive.
    pub window: CycleWindow,
    /// Output file.
    pub output: PathBuf,
}

/// The `ACL_PROFILE_START_CYCLE` .. `ACL_PROFILE_STOP_CYCLE` window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleWindow {
    /// First counted cycle.
    pub start: u64,
    /// Last counted cycle (`u64::MAX` when unbounded).
    pub stop: u64,
}

impl CycleWindow {
    /// The whole timeline.
    pub const ALL: CycleWindow = CycleWindow {
        start: 0,
        stop: u64::MAX,
    };

    /// Whether the window is the whole timeline.
    pub fn is_all(&self) -> bool {
        *self == Self::ALL
    }

    /// Fraction of the cycles `[start, end)` that lie inside the window (1 for an empty
    /// interval inside it, 0 for one outside).
    pub fn overlap(&self, start: u64, end: u64) -> f64 {
        if self.is_all() {
            return 1.0;
        }
        let stop_excl = self.stop.saturating_add(1);
        if end <= start {
            return if start >= self.start && start < stop_excl {
                1.0
            } else {
                0.0
            };
        }
        let a = start.max(self.start);
        let b = end.min(stop_excl);
        if b <= a {
            0.0
        } else {
            (b - a) as f64 / (end - start) as f64
        }
    }
}

impl ProfileConfig {
    /// Whether anything is written at all.
    pub fn enabled(&self) -> bool {
        self.active || self.timer
    }

    /// Whether kernel runs carry counters (and programs, snapshots and captures are written).
    pub fn counters(&self) -> bool {
        self.active
    }

    /// Reads the configuration through `get` (the environment in [`ProfileConfig::from_env`]).
    /// Returns the configuration and one message per invalid variable.
    pub fn parse(get: impl Fn(&str) -> Option<String>) -> (ProfileConfig, Vec<String>) {
        let mut problems = Vec::new();
        let mut flag = |name: &str| -> bool {
            match get(name).as_deref().map(str::trim) {
                None | Some("") => false,
                Some(v) => match parse_bool(v) {
                    Some(b) => b,
                    None => {
                        problems.push(format!(
                            "{name}={v:?} is not a boolean (use 1 or 0); ignored"
                        ));
                        false
                    }
                },
            }
        };
        let active = flag(var::ACTIVE);
        let timer = flag(var::TIMER);
        let mut cycle = |name: &str| -> Option<u64> {
            match get(name).as_deref().map(str::trim) {
                None | Some("") => None,
                Some(v) => match v.parse::<u64>() {
                    Ok(n) => Some(n),
                    Err(_) => {
                        problems.push(format!(
                            "{name}={v:?} is not a cycle count (a whole number >= 0); ignored"
                        ));
                        None
                    }
                },
            }
        };
        let start = cycle(var::START_CYCLE);
        let stop = cycle(var::STOP_CYCLE);
        let mut window = CycleWindow {
            start: start.unwrap_or(0),
            stop: stop.unwrap_or(u64::MAX),
        };
        if window.stop < window.start {
            problems.push(format!(
                "{}={} is before {}={}; the counting window is ignored",
                var::STOP_CYCLE,
                window.stop,
                var::START_CYCLE,
                window.start
            ));
            window = CycleWindow::ALL;
        }
        let output = match get(var::OUT) {
            Some(p) if !p.trim().is_empty() => PathBuf::from(p),
            Some(_) | None => PathBuf::from(DEFAULT_OUTPUT),
        };
        (
            ProfileConfig {
                active,
                timer,
                window,
                output,
            },
            problems,
        )
    }

    /// Reads the process environment.
    pub fn from_env() -> (ProfileConfig, Vec<String>) {
        Self::parse(|name| std::env::var_os(name).map(|v| v.to_string_lossy().into_owned()))
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn parse(vars: &[(&str, &str)]) -> (ProfileConfig, Vec<String>) {
        let m: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        ProfileConfig::parse(|k| m.get(k).cloned())
    }

    #[test]
    fn defaults_are_off() {
        let (c, p) = parse(&[]);
        assert!(!c.enabled());
        assert!(p.is_empty());
        assert_eq!(c.output, PathBuf::from("profile.mon"));
        assert!(c.window.is_all());
    }

    #[test]
    fn intel_variables() {
        let (c, p) = parse(&[
            ("ACL_RUNTIME_PROFILING_ACTIVE", "1"),
            ("ACL_PROFILE_TIMER", "1"),
            ("ACL_PROFILE_START_CYCLE", "100"),
            ("ACL_PROFILE_STOP_CYCLE", "200"),
            ("FPGACL_PROFILE_OUT", "/tmp/x.mon"),
        ]);
        assert!(p.is_empty(), "{p:?}");
        assert!(c.active && c.timer && c.counters());
        assert_eq!(
            c.window,
            CycleWindow {
                start: 100,
                stop: 200
            }
        );
        assert_eq!(c.output, PathBuf::from("/tmp/x.mon"));
    }

    #[test]
    fn timer_alone_records_without_counters() {
        let (c, _) = parse(&[("ACL_PROFILE_TIMER", "1")]);
        assert!(c.enabled());
        assert!(!c.counters());
    }

    #[test]
    fn invalid_values_are_reported_and_ignored() {
        let (c, p) = parse(&[
            ("ACL_RUNTIME_PROFILING_ACTIVE", "maybe"),
            ("ACL_PROFILE_START_CYCLE", "-5"),
            ("ACL_PROFILE_STOP_CYCLE", "12x"),
        ]);
        assert!(!c.active);
        assert!(c.window.is_all());
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].contains("ACL_RUNTIME_PROFILING_ACTIVE"));
        let (c, p) = parse(&[
            ("ACL_PROFILE_START_CYCLE", "500"),
            ("ACL_PROFILE_STOP_CYCLE", "100"),
        ]);
        assert!(c.window.is_all());
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn window_overlap() {
        let w = CycleWindow {
            start: 100,
            stop: 199,
        };
        assert_eq!(w.overlap(0, 50), 0.0);
        assert_eq!(w.overlap(100, 200), 1.0);
        assert_eq!(w.overlap(50, 150), 0.5);
        assert_eq!(w.overlap(150, 250), 0.5);
        assert_eq!(w.overlap(300, 400), 0.0);
        assert_eq!(w.overlap(120, 120), 1.0);
        assert_eq!(CycleWindow::ALL.overlap(5, 1), 1.0);
    }
}
