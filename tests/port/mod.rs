//! A port for a test's server that no connection can take meanwhile. The system gives the local
//! ports of outgoing connections (and `:0`) from its ephemeral range, so a server killed and
//! started again on a port from there may find it taken by another test's connection; these
//! ports lie below that range.

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
