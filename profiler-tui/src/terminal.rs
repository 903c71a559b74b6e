//! The interactive loop: raw mode and the alternate screen on entry, restored on every way out
//! (normal quit, error, panic, SIGTERM/SIGHUP/SIGQUIT/SIGINT; Ctrl-C arrives as a key in raw
//! mode and quits).

use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

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

/// Runs `app` in the terminal until the user quits. Returns the signal number when a stop
/// signal ended it.
pub fn run(mut app: App) -> io::Result<Option<i32>> {
    let signals = SignalWatch::new();
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
