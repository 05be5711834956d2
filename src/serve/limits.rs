//! What one address may do, and what the whole server holds: connections open at once, wrong room
//! codes (a few free, then a wait that doubles), rooms made an hour; every refusal counted and
//! written to the log once a minute per address, not a line each.

use super::log;
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The limits a server keeps, each a flag of `tabla serve` (see `Limits::FLAGS`).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections one address may hold open at once.
    pub connections_per_address: usize,
    /// Connections the server holds open at once.
    pub max_connections: usize,
    /// Rooms the server keeps at once in its folder (with Redis, its `maxmemory` bounds them).
    pub max_rooms: usize,
    /// Rooms one address may make in an hour.
    pub rooms_per_hour: u32,
    /// Wrong room codes (or seat keys) one address may give before it waits.
    pub free_wrong_codes: u32,
    /// A request's headers must come within this.
    pub header_timeout: Duration,
    /// A connection must say `hello` or `new` within this of opening.
    pub hello_timeout: Duration,
    /// A connection from which nothing came for this long (not even an answer to a ping) is let go.
    pub idle_timeout: Duration,
    /// The server stands behind a proxy on this machine: a connection from a loopback address is
    /// counted by the last address of its `X-Forwarded-For`.
    pub behind_proxy: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 20,
            max_connections: 10_000,
            max_rooms: 10_000,
            rooms_per_hour: 10,
            free_wrong_codes: 5,
            header_timeout: Duration::from_secs(10),
            hello_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            behind_proxy: false,
        }
    }
}

/// The first wait after the free wrong codes; each further wrong code doubles it, up to the most.
pub const FIRST_WAIT: Duration = Duration::from_secs(15);
pub const MOST_WAIT: Duration = Duration::from_secs(60 * 60);
/// Wrong codes are forgotten a day after the last one.
const FORGET_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// Why something was refused, as the minute's log line counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Refusal {
    TooManyConnections,
    ServerFull,
    WrongCode,
    WaitAfterWrongCodes,
    TooManyRooms,
    RoomsFull,
    TooManyMessages,
    NotTheProtocol,
    ActionRefused,
    NoHelloInTime,
    Idle,
}

impl Refusal {
    fn name(self) -> &'static str {
        match self {
            Refusal::TooManyConnections => "connections over the address's limit",
            Refusal::ServerFull => "connections over the server's limit",
            Refusal::WrongCode => "wrong room codes or seat keys",
            Refusal::WaitAfterWrongCodes => "hellos while waiting after wrong codes",
            Refusal::TooManyRooms => "rooms over the address's hourly limit",
            Refusal::RoomsFull => "rooms over the server's limit",
            Refusal::TooManyMessages => "messages over the rate",
            Refusal::NotTheProtocol => "messages not of the protocol",
            Refusal::ActionRefused => "actions refused",
            Refusal::NoHelloInTime => "connections without a hello in time",
            Refusal::Idle => "idle connections let go",
        }
    }
}

/// One address as the limits see it: an IPv4 address, or an IPv6 address's /64 (one home's).
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
        v4 => v4,
    }
}

#[derive(Default)]
struct Address {
    open: usize,
    /// Lookups on their way (each may yet prove wrong).
    looking: u32,
    wrong: u32,
    last_wrong: Option<Instant>,
    wait_until: Option<Instant>,
    /// Rooms it may still make now, and when that was counted.
    rooms_left: Option<(f64, Instant)>,
    refused: BTreeMap<Refusal, u64>,
}

impl Address {
    fn idle(&self, now: Instant) -> bool {
        self.open == 0
            && self.looking == 0
            && self.refused.is_empty()
            && self.last_wrong.is_none_or(|at| now.duration_since(at) > FORGET_AFTER)
            && self.rooms_left.is_none_or(|(_, at)| now.duration_since(at) > Duration::from_secs(3600))
    }
}

/// The limits as they stand: every address's counts, and the server's.
pub struct Keeper {
    pub limits: Limits,
    addresses: Mutex<HashMap<IpAddr, Address>>,
    open: AtomicUsize,
    /// The rooms kept now, as the rooms count them.
    rooms: Arc<AtomicUsize>,
}

/// A connection counted as open until it is dropped.
pub struct Ticket {
    keeper: Arc<Keeper>,
    address: Option<IpAddr>,
}

impl Drop for Ticket {
    fn drop(&mut self) {
        match self.address {
            Some(address) => self.keeper.with(address, |a| a.open = a.open.saturating_sub(1)),
            None => {
                self.keeper.open.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }
}

impl Keeper {
    pub fn new(limits: Limits, rooms: Arc<AtomicUsize>) -> Arc<Keeper> {
        Arc::new(Keeper { limits, addresses: Mutex::new(HashMap::new()), open: AtomicUsize::new(0), rooms })
    }

    fn with<T>(&self, address: IpAddr, f: impl FnOnce(&mut Address) -> T) -> T {
        let mut addresses = self.addresses.lock().expect("the addresses are never left half-changed");
        f(addresses.entry(address).or_default())
    }

    /// Counts a refusal for the minute's log line.
    pub fn refused(&self, address: IpAddr, why: Refusal) {
        self.with(address, |a| *a.refused.entry(why).or_default() += 1);
    }

    /// A connection comes in: its ticket for the server's count, or `None` when the server holds
    /// as many as it may.
    pub fn open(self: &Arc<Keeper>, address: IpAddr) -> Option<Ticket> {
        if self.open.fetch_add(1, Ordering::Relaxed) >= self.limits.max_connections {
            self.open.fetch_sub(1, Ordering::Relaxed);
            self.refused(address, Refusal::ServerFull);
            return None;
        }
        Some(Ticket { keeper: self.clone(), address: None })
    }

    /// A connection of `address`: its ticket, or `None` when the address holds as many as it may.
    pub fn open_for(self: &Arc<Keeper>, address: IpAddr) -> Option<Ticket> {
        let most = self.limits.connections_per_address;
        let taken = self.with(address, |a| {
            if a.open >= most {
                *a.refused.entry(Refusal::TooManyConnections).or_default() += 1;
                false
            } else {
                a.open += 1;
                true
            }
        });
        taken.then(|| Ticket { keeper: self.clone(), address: Some(address) })
    }

    /// Whether the address may look a room up now (counted as on its way until `looked_up`); else
    /// how long it is to wait. Lookups at once count as if each were wrong: no more are on their
    /// way than the wrong codes the address may still give (one, once it has waited).
    pub fn may_look_up(&self, address: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let free = self.limits.free_wrong_codes;
        self.with(address, |a| {
            if a.last_wrong.is_some_and(|at| now.duration_since(at) > FORGET_AFTER) {
                a.wrong = 0;
            }
            let room = if a.wrong < free { free - a.wrong } else { 1 };
            let wait = match a.wait_until {
                Some(until) if until > now => Some(until - now),
                _ if a.looking >= room => Some(Duration::from_secs(1)),
                _ => None,
            };
            match wait {
                Some(wait) => {
                    *a.refused.entry(Refusal::WaitAfterWrongCodes).or_default() += 1;
                    Err(wait)
                }
                None => {
                    a.looking += 1;
                    Ok(())
                }
            }
        })
    }

    /// A lookup `may_look_up` let through is over: a wrong code or key waits, past the free
    /// ones, twice as long each time.
    pub fn looked_up(&self, address: IpAddr, wrong: bool) {
        let now = Instant::now();
        let free = self.limits.free_wrong_codes;
        self.with(address, |a| {
            a.looking = a.looking.saturating_sub(1);
            if !wrong {
                return;
            }
            a.wrong += 1;
            a.last_wrong = Some(now);
            *a.refused.entry(Refusal::WrongCode).or_default() += 1;
            if a.wrong >= free {
                a.wait_until = Some(now + wait_after(a.wrong + 1 - free));
            }
        });
    }

    /// Whether the address may make a room now (and the server keep one more); counted when so.
    pub fn may_make_room(&self, address: IpAddr) -> Result<(), Refusal> {
        if self.rooms.load(Ordering::Relaxed) >= self.limits.max_rooms {
            self.refused(address, Refusal::RoomsFull);
            return Err(Refusal::RoomsFull);
        }
        let per_hour = f64::from(self.limits.rooms_per_hour);
        let now = Instant::now();
        self.with(address, |a| {
            let (left, since) = a.rooms_left.unwrap_or((per_hour, now));
            let left = (left + now.duration_since(since).as_secs_f64() * per_hour / 3600.0).min(per_hour);
            if left >= 1.0 {
                a.rooms_left = Some((left - 1.0, now));
                Ok(())
            } else {
                a.rooms_left = Some((left, now));
                *a.refused.entry(Refusal::TooManyRooms).or_default() += 1;
                Err(Refusal::TooManyRooms)
            }
        })
    }

    /// Once a minute: one log line per address that was refused anything, and addresses with
    /// nothing left to count forgotten.
    pub async fn summarise_every_minute(self: Arc<Keeper>) {
        let mut minute = tokio::time::interval(Duration::from_secs(60));
        minute.tick().await;
        loop {
            minute.tick().await;
            for line in self.summary() {
                log(&line);
            }
        }
    }

    /// The minute's lines, each address's counts then cleared.
    pub fn summary(&self) -> Vec<String> {
        let now = Instant::now();
        let mut addresses = self.addresses.lock().expect("the addresses are never left half-changed");
        let mut lines = Vec::new();
        for (address, counts) in addresses.iter_mut() {
            let refused = std::mem::take(&mut counts.refused);
            if refused.is_empty() {
                continue;
            }
            let total: u64 = refused.values().sum();
            let kinds: Vec<String> = refused.iter().map(|(why, n)| format!("{n} {}", why.name())).collect();
            lines.push(format!("{address}: {total} refused in the last minute ({})", kinds.join(", ")));
        }
        addresses.retain(|_, a| !a.idle(now));
        lines.sort();
        lines
    }
}

/// The wait after the `n`th wrong code past the free ones.
pub fn wait_after(n: u32) -> Duration {
    FIRST_WAIT.saturating_mul(1 << (n - 1).min(16)).min(MOST_WAIT)
}

/// The address a request is counted by: the peer's, or behind a proxy on this machine the last
/// address its `X-Forwarded-For` names.
pub fn address_of(limits: &Limits, peer: IpAddr, forwarded_for: Option<&str>) -> IpAddr {
    let forwarded = forwarded_for
        .filter(|_| limits.behind_proxy && peer.is_loopback())
        .and_then(|list| list.rsplit(',').next())
        .and_then(|last| last.trim().parse::<IpAddr>().ok());
    address_key(forwarded.unwrap_or(peer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_fifteen_seconds_to_an_hour() {
        assert_eq!(wait_after(1), Duration::from_secs(15));
        assert_eq!(wait_after(2), Duration::from_secs(30));
        assert_eq!(wait_after(8), Duration::from_secs(15 * 128));
        assert_eq!(wait_after(9), MOST_WAIT);
        assert_eq!(wait_after(400), MOST_WAIT);
    }

    #[test]
    fn an_ipv6_home_is_one_address_and_a_proxy_is_believed_only_on_loopback() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        let limits = Limits { behind_proxy: true, ..Limits::default() };
        let local: IpAddr = "127.0.0.1".parse().unwrap();
        let far: IpAddr = "198.51.100.7".parse().unwrap();
        assert_eq!(
            address_of(&limits, local, Some("10.0.0.1, 203.0.113.5")),
            "203.0.113.5".parse::<IpAddr>().unwrap()
        );
        assert_eq!(address_of(&limits, far, Some("203.0.113.5")), far);
        assert_eq!(address_of(&Limits::default(), local, Some("203.0.113.5")), local);
    }

    #[test]
    fn wrong_codes_past_the_free_ones_wait_and_rooms_are_counted_an_hour() {
        let keeper = Keeper::new(
            Limits { free_wrong_codes: 2, rooms_per_hour: 3, ..Limits::default() },
            Arc::default(),
        );
        let me: IpAddr = "127.0.0.9".parse().unwrap();
        let other: IpAddr = "127.0.0.10".parse().unwrap();
        // Two lookups at once are as many as may be on their way.
        assert!(keeper.may_look_up(me).is_ok() && keeper.may_look_up(me).is_ok(), "two wrong codes are free");
        assert_eq!(keeper.may_look_up(me), Err(Duration::from_secs(1)), "a third waits for them");
        keeper.looked_up(me, true);
        keeper.looked_up(me, true);
        let wait = keeper.may_look_up(me).unwrap_err();
        assert!(wait > Duration::from_secs(14) && wait <= FIRST_WAIT, "{wait:?}");
        assert!(keeper.may_look_up(other).is_ok(), "another address is not held back");
        for _ in 0..3 {
            assert!(keeper.may_make_room(me).is_ok());
        }
        assert_eq!(keeper.may_make_room(me), Err(Refusal::TooManyRooms));
        assert!(keeper.may_make_room(other).is_ok());
        let lines = keeper.summary();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].starts_with("127.0.0.9: 5 refused"), "{lines:?}");
        assert!(keeper.summary().is_empty(), "counted once");
    }

    #[test]
    fn connections_are_counted_per_address_until_let_go() {
        let keeper = Keeper::new(
            Limits { connections_per_address: 2, max_connections: 3, ..Limits::default() },
            Arc::default(),
        );
        let me: IpAddr = "127.0.0.9".parse().unwrap();
        let first = keeper.open_for(me).unwrap();
        let _second = keeper.open_for(me).unwrap();
        assert!(keeper.open_for(me).is_none());
        drop(first);
        assert!(keeper.open_for(me).is_some());
        let held: Vec<Ticket> = (0..3).map(|_| keeper.open(me).unwrap()).collect();
        assert!(keeper.open(me).is_none(), "the server holds three at most");
        drop(held);
        assert!(keeper.open(me).is_some());
    }
}
