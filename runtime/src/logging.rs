//! The runtime's diagnostics go through the `log` crate (runtime and device-model); this is
//! the logger behind them, installed when the platform is first created.
//!
//! `FPGACL_LOG` chooses the level: `off`, `error`, `warn` (the default: the messages hosts and
//! users rely on, e.g. "deadlock: ...", "profiling disabled: ...", autorun faults), `info`,
//! `debug`, `trace`. Messages go to stderr as they are (they start with `fpgacl: `), one per
//! line, with control characters escaped for the terminal
//! ([`fpgacl_profile_format::terminal_safe`]). A host that installed its own `log` logger
//! keeps it.

use std::io::Write;

struct StderrLogger;

impl log::Log for StderrLogger {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        // Cranelift (the default backend's code generator) logs its passes at debug level.
        metadata.level() <= log::max_level() && !metadata.target().starts_with("cranelift")
    }

    fn log(&self, record: &log::Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let msg = record.args().to_string();
        let msg = fpgacl_profile_format::terminal_safe::escape_text(&msg);
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{msg}");
    }

    fn flush(&self) {}
}

static LOGGER: StderrLogger = StderrLogger;

/// The level named by `value` (case-insensitive), or `None` when it names none.
pub fn parse_level(value: &str) -> Option<log::LevelFilter> {
    match value.trim().to_ascii_lowercase().as_str() {
        "off" | "0" | "none" => Some(log::LevelFilter::Off),
        "error" => Some(log::LevelFilter::Error),
        "warn" | "warning" => Some(log::LevelFilter::Warn),
        "info" => Some(log::LevelFilter::Info),
        "debug" => Some(log::LevelFilter::Debug),
        "trace" => Some(log::LevelFilter::Trace),
        _ => None,
    }
}

/// Installs the stderr logger at the `FPGACL_LOG` level (default warn). Idempotent; does
/// nothing when another logger is installed.
pub fn init() {
    let raw = std::env::var("FPGACL_LOG").ok();
    let level = raw.as_deref().map(parse_level);
    if log::set_logger(&LOGGER).is_err() {
        return;
    }
    log::set_max_level(level.flatten().unwrap_or(log::LevelFilter::Warn));
    if let (Some(v), Some(None)) = (raw, level) {
        log::warn!(
            "fpgacl: FPGACL_LOG={v}: not a level (off, error, warn, info, debug, trace); \
             using warn"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels() {
        assert_eq!(parse_level("WARN"), Some(log::LevelFilter::Warn));
        assert_eq!(parse_level(" debug "), Some(log::LevelFilter::Debug));
        assert_eq!(parse_level("off"), Some(log::LevelFilter::Off));
        assert_eq!(parse_level("loud"), None);
    }
}
