//! The tests' `tabla serve`: started on a port no connection can take meanwhile, and waited for
//! until it listens. The system gives the local ports of outgoing connections (and `:0`) from its
//! ephemeral range, so a server killed and started again on a port from there may find it taken by
//! another test's connection; these ports lie below that range.

use std::net::TcpListener;
use std::sync::atomic::{AtomicU32, Ordering};

/// The ports tried so far by this test binary (each test gets its own).
static TRIED: AtomicU32 = AtomicU32::new(0);

/// A free port in 10000–19999 (the browser test takes its own from 20000 up).
pub fn quiet_port() -> u16 {
    // Spread by the process, so two test binaries running side by side rarely meet.
    let start = std::process::id() * 97;
    for _ in 0..10_000 {
        let port = 10_000 + ((start + TRIED.fetch_add(1, Ordering::Relaxed)) % 10_000) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in 10000-19999");
}

/// Starts a server on `port` with `start` (`None`: it could not listen) until it listens. The
/// port may still be held a moment by the sockets of a server killed an instant before, so a
/// refused start is tried again for at most ten seconds; then the port's sockets are shown.
pub fn until_listening<T>(port: u16, mut start: impl FnMut() -> Option<T>) -> T {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        if let Some(started) = start() {
            return started;
        }
        if std::time::Instant::now() > until {
            let sockets = std::process::Command::new("ss").arg("-tanp").output().map(|out| out.stdout);
            let sockets = String::from_utf8_lossy(&sockets.unwrap_or_default()).to_string();
            let held: Vec<&str> = sockets.lines().filter(|l| l.contains(&format!(":{port} "))).collect();
            panic!("port {port} stays taken: {held:#?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
}

/// `tabla` (the test's own build) serving on `port` with `args`, once its first line says it
/// listens; its log goes to the test's output.
pub fn serve(tabla: &str, port: u16, args: &[&str]) -> std::process::Child {
    use std::io::BufRead;
    until_listening(port, || {
        let mut child = std::process::Command::new(tabla)
            .args(["serve", "--port", &port.to_string()])
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()
            .expect("tabla serve starts");
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        let listening = first.starts_with("tabla serve: listening on http://127.0.0.1:");
        let _ = listening || child.wait().is_ok();
        listening.then_some(child)
    })
}
