//! The interactive loop: raw mode and the alternate screen on entry, restored on every way out
//! (normal quit, error, panic, SIGTERM/SIGHUP/SIGQUIT/SIGINT; Ctrl-C arrives as a key in raw
//! mode and quits).
//!
//! A watchdog thread guards against a terminal that disappears (terminal emulator or tmux
//! server killed, ssh connection dropped) without the signal reaching us: crossterm's event
//! reader then loops forever on `read()` returning 0 or `EIO` inside `event::poll`, so the loop
//! below would never regain control. The watchdog polls the terminal's file descriptors for
//! `POLLHUP`/`POLLERR`/`POLLNVAL` every [`WATCH_PERIOD`] and ends the process with status
//! [`HANGUP_STATUS`] when they hang up; it also ends it when a stop signal was caught but the
//! loop did not return within [`SIGNAL_GRACE`].

use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::execute;
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use crate::app::App;
use crate::ui;

/// True while the terminal is in raw mode / the alternate screen.
static ACTIVE: AtomicBool = AtomicBool::new(false);
static HOOK: Once = Once::new();

/// Puts the terminal back the way it was. Safe to call more than once.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(io::stdout(), LeaveAlternateScreen, DisableMouseCapture);
        let _ = execute!(io::stdout(), crossterm::cursor::Show);
    }
}

/// Restores the terminal when dropped, so early returns and unwinding panics clean up.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Leave the alternate screen first so the panic message is readable.
            restore();
            previous(info);
        }));
    });
}

fn setup() -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    install_panic_hook();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(io::stdout(), EnterAlternateScreen, EnableMouseCapture)?;
    let mut term = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    term.clear()?;
    Ok(term)
}

/// Signals that stop the profiler cleanly.
const STOP_SIGNALS: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGQUIT,
    signal_hook::consts::SIGINT,
];

/// Watches the stop signals while alive; unregisters its handlers when dropped.
struct SignalWatch {
    ids: Vec<signal_hook::SigId>,
    caught: Arc<AtomicUsize>,
}

impl SignalWatch {
    fn new() -> SignalWatch {
        let caught = Arc::new(AtomicUsize::new(0));
        let mut ids = Vec::new();
        for sig in STOP_SIGNALS {
            // The handler only stores the signal number into the atomic.
            let id = signal_hook::flag::register_usize(sig, Arc::clone(&caught), sig as usize);
            if let Ok(id) = id {
                ids.push(id);
            }
        }
        SignalWatch { ids, caught }
    }

    fn caught(&self) -> Option<i32> {
        match self.caught.load(Ordering::SeqCst) {
            0 => None,
            s => i32::try_from(s).ok(),
        }
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        for id in self.ids.drain(..) {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// How often the watchdog looks at the terminal and the caught signal.
pub const WATCH_PERIOD: Duration = Duration::from_millis(200);

/// How long a caught stop signal may wait for the event loop before the watchdog exits.
pub const SIGNAL_GRACE: Duration = Duration::from_millis(1000);

/// Exit status when the terminal hung up under the profiler (128 + SIGHUP, as a shell reports
/// a process killed by SIGHUP).
pub const HANGUP_STATUS: i32 = 128 + libc::SIGHUP;

/// True when one of `fds` is a hung-up or closed terminal (or reports an error condition).
/// Waits up to `wait` for that to happen.
fn hung_up(fds: [i32; 2], wait: Duration) -> bool {
    // No events asked for: poll still reports POLLHUP, POLLERR and POLLNVAL.
    let mut pfds = fds.map(|fd| libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    });
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: `pfds` is a valid array of `pfds.len()` pollfd structs for the call's duration.
    let n = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, ms) };
    n > 0
        && pfds
            .iter()
            .any(|p| p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0)
}

/// Stops the watchdog when dropped (it then exits at its next wake-up without acting).
struct Watchdog {
    done: Arc<AtomicBool>,
}

impl Watchdog {
    /// Starts watching standard input and output (the terminal the profiler runs in).
    fn start(caught: Arc<AtomicUsize>) -> Watchdog {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let spawned = std::thread::Builder::new()
            .name("fpgacl-tty-watchdog".into())
            .spawn(move || watch(&flag, &caught));
        // Without the thread the profiler still works; only a vanished terminal is not caught.
        drop(spawned);
        Watchdog { done }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
    }
}

fn watch(done: &AtomicBool, caught: &AtomicUsize) {
    let fds = [libc::STDIN_FILENO, libc::STDOUT_FILENO];
    let mut signal_seen: Option<Instant> = None;
    loop {
        let started = Instant::now();
        let hup = hung_up(fds, WATCH_PERIOD);
        if done.load(Ordering::SeqCst) {
            return;
        }
        if hup {
            // The terminal is gone: nothing to restore and nobody to tell. Leave at once
            // (the event loop may be spinning inside crossterm and never return).
            ACTIVE.store(false, Ordering::SeqCst);
            // SAFETY: _exit only ends the process; no Rust state is touched afterwards.
            unsafe { libc::_exit(HANGUP_STATUS) };
        }
        let sig = caught.load(Ordering::SeqCst);
        if sig != 0 {
            let since = *signal_seen.get_or_insert_with(Instant::now);
            if since.elapsed() >= SIGNAL_GRACE {
                // The event loop did not notice the signal in time: restore and exit here.
                restore();
                std::process::exit(128 + i32::try_from(sig).unwrap_or(0));
            }
        }
        // poll may return early (EINTR when a signal arrives): never spin.
        if let Some(rest) = WATCH_PERIOD.checked_sub(started.elapsed()) {
            std::thread::sleep(rest);
        }
    }
}

/// Runs `app` in the terminal until the user quits. Returns the signal number when a stop
/// signal ended it. Ends the process with [`HANGUP_STATUS`] if the terminal hangs up.
pub fn run(mut app: App) -> io::Result<Option<i32>> {
    let signals = SignalWatch::new();
    let _watchdog = Watchdog::start(Arc::clone(&signals.caught));
    let _guard = Guard;
    let mut term = setup()?;
    term.draw(|f| ui::draw(f, &app))?;
    while !app.quit {
        if let Some(sig) = signals.caught() {
            return Ok(Some(sig));
        }
        // Wake up now and then to notice signals.
        if !event::poll(Duration::from_millis(200))? {
            continue;
        }
        let mut redraw = handle(&mut app, event::read()?);
        // Apply queued events (held keys, wheel bursts) before drawing again, so scrolling
        // never lags behind the keyboard.
        let mut budget = 256;
        while budget > 0 && !app.quit && event::poll(std::time::Duration::ZERO)? {
            redraw |= handle(&mut app, event::read()?);
            budget -= 1;
        }
        if redraw && !app.quit {
            term.draw(|f| ui::draw(f, &app))?;
        }
    }
    Ok(None)
}

/// Applies one terminal event; true when the screen must be redrawn.
fn handle(app: &mut App, ev: Event) -> bool {
    match ev {
        Event::Key(k) => {
            app.on_key(k);
            true
        }
        Event::Mouse(m) => {
            app.on_mouse(m);
            !matches!(m.kind, event::MouseEventKind::Moved)
        }
        Event::Resize(_, _) => true,
        _ => false,
    }
}
