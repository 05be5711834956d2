//! The `tabla` command: the game window by default, plus `text` and `bench` (and `--tour` in a
//! build for the tests).

use std::process::ExitCode;
#[cfg(not(target_arch = "wasm32"))]
use tabla::{bench, levels, text};

const USAGE: &str = "\
tabla                         play (opens the game window)
tabla --game knight_hunt [--variant two_knights] [--players robot|friend] [--color white|black]
      [--robot-level 1|2|3] [--clock 0|1|3|5|10] [--lang ro|en|it|el]
                              start one game directly
tabla --continue              go on with the game in progress of the child who played last
tabla --child N               whose game it is (1 to 8); with --continue, --game or --load
tabla --load <record.ron>     go on from a game's record file
tabla --seed N                the first game's dice and Robot choices, as `tabla text --seed N`
tabla --join CODE [--server URL]
                              join a room of `tabla serve` (someone far away made it)
tabla text --level <file.ron> [--seed N]
                              play through text: one command per line in, one JSON line out
tabla text --load <record.ron> [--level <file.ron>]
                              go on playing a game from its record (`record` writes one)
tabla text --join <url> <code> [--seat N] [--seat-key KEY] [--name NAME]
                              play a seat of a room on `tabla serve` through text (`wait`
                              waits for this seat's turn); several urls, comma-separated, are
                              tried in turn when a server goes away; a seat sat at before
                              takes its key (`state` shows it under room.seat_key)
tabla text --join <url> new --level <game/variant> [--seats person,robot2,…] [--seat N] [--clock MIN]
                              make a room and sit at it: the first line is {\"room\":CODE,…}
tabla serve [--port N] [--listen ADDR] [--data DIR] [--redis URL] [--web DIR] [--behind-proxy]
      [--connections-per-address 20] [--max-connections 10000] [--max-rooms 10000]
      [--rooms-per-hour 10] [--free-wrong-codes 5] [--header-timeout 10] [--hello-timeout 10]
      [--idle-timeout 60]         rooms for playing on two devices (127.0.0.1:8790 unless told);
                              the limits per address and for the whole server, times in seconds
tabla bench [--game NAME] [--games N] [--seed N]
                              print benchmark figures as `game.figure value`
tabla bench --serve [--rooms 500] [--seconds 60] [--connections 5000]
                              rooms of seats playing through tabla serve on loopback beside
                              connections held open and a guesser, then through Redis:
                              `serve.figure value`";

/// The tour's line, in a build for the tests only (the `tour` feature).
#[cfg(feature = "tour")]
const TOUR_USAGE: &str = "
tabla --tour <dir>            open every screen, save one PNG per screen, exit (keeps what it
                              makes in <dir>/home, never in the player's folder)";
#[cfg(not(feature = "tour"))]
const TOUR_USAGE: &str = "";

/// `--name value` pairs after the command word (the browser's come from its address).
#[cfg(not(target_arch = "wasm32"))]
fn flags(args: &[String]) -> Result<Vec<(String, String)>, String> {
    let mut pairs = Vec::new();
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let Some(name) = flag.strip_prefix("--") else {
            return Err(format!("unexpected argument '{flag}'"));
        };
        // The switches that take no value.
        if ["continue", "behind-proxy"].contains(&name) {
            pairs.push((name.to_string(), String::new()));
            continue;
        }
        let value = rest.next().ok_or_else(|| format!("--{name} needs a value"))?;
        pairs.push((name.to_string(), value.clone()));
    }
    Ok(pairs)
}

#[cfg(not(target_arch = "wasm32"))]
fn number(flags: &[(String, String)], name: &str, default: u64) -> Result<u64, String> {
    match flags.iter().find(|(n, _)| n == name) {
        None => Ok(default),
        Some((_, v)) => v.parse().map_err(|_| format!("--{name} wants a number, not '{v}'")),
    }
}

// The browser has no command line: its build leaves `text` and `bench` out (a lighter download).
#[cfg(not(target_arch = "wasm32"))]
fn text_command(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--join") {
        return join_command(&args[1..]);
    }
    let flags = flags(args)?;
    if let Some((name, _)) = flags.iter().find(|(n, _)| !["level", "seed", "load"].contains(&n.as_str())) {
        return Err(format!("unknown option --{name}"));
    }
    let given = |name: &str| flags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let mut console = match given("load") {
        Some(_) if given("seed").is_some() => {
            return Err("--seed does not go with --load: the record carries its own seed".into());
        }
        Some(record) => text::load_session(&record, given("level").as_deref())?,
        None => {
            let path = given("level").unwrap_or_else(|| "ron_configs/knight_hunt/one_knight.ron".to_string());
            let level = levels::find(&path).map_err(|e| e.to_string())?;
            text::session_for(&level, number(&flags, "seed", 0)?)
        }
    };
    text::run(console.as_mut(), std::io::stdin().lock(), std::io::stdout().lock()).map_err(|e| e.to_string())
}

/// `tabla text --join URL CODE|new …`: a seat of a room through text.
#[cfg(not(target_arch = "wasm32"))]
fn join_command(args: &[String]) -> Result<(), String> {
    let [urls, code, rest @ ..] = args else {
        return Err("--join needs the server's address and a room's code (or 'new')".into());
    };
    let flags = flags(rest)?;
    let allowed = ["seat", "name", "level", "seats", "picture", "clock", "seat-key"];
    if let Some((name, _)) = flags.iter().find(|(n, _)| !allowed.contains(&n.as_str())) {
        return Err(format!("unknown option --{name}"));
    }
    let given = |name: &str| flags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let urls: Vec<String> = urls.split(',').map(str::to_string).collect();
    let seat =
        u8::try_from(number(&flags, "seat", 0)?).map_err(|_| "--seat is a seat's number".to_string())?;
    let picture =
        u8::try_from(number(&flags, "picture", 0)?).map_err(|_| "--picture is 0 to 255".to_string())?;
    let name = given("name").unwrap_or_else(|| format!("Seat {}", seat + 1));
    use tabla::net::client::{RoomSeat, SeatWanted};
    let mut seat = if code == "new" {
        let level = given("level").ok_or("a new room needs --level <game>/<variant>")?;
        let found = levels::built_in(&level)?;
        let seats = match given("seats") {
            Some(list) => list.split(',').map(str::to_string).collect(),
            None => vec!["person".to_string(); found.seat_count()],
        };
        let clock =
            u32::try_from(number(&flags, "clock", 0)?).map_err(|_| "--clock is minutes".to_string())?;
        let name_of_level = found.file.trim_start_matches("ron_configs/").trim_end_matches(".ron");
        let (sat, made) = RoomSeat::make(urls, name_of_level, seats, clock, (seat, &name, picture))?;
        println!("{}", made.line(&sat));
        sat
    } else {
        let wanted = SeatWanted { code: code.clone(), seat, seat_key: given("seat-key"), token: None };
        RoomSeat::join(urls, wanted, &name, picture)?
    };
    text::run(&mut seat, std::io::stdin().lock(), std::io::stdout().lock()).map_err(|e| e.to_string())
}

/// `tabla serve`: rooms for two devices.
#[cfg(not(target_arch = "wasm32"))]
fn serve_command(args: &[String]) -> Result<(), String> {
    let flags = flags(args)?;
    let known = [
        "port",
        "listen",
        "data",
        "redis",
        "web",
        "behind-proxy",
        "connections-per-address",
        "max-connections",
        "max-rooms",
        "rooms-per-hour",
        "free-wrong-codes",
        "header-timeout",
        "hello-timeout",
        "idle-timeout",
    ];
    if let Some((name, _)) = flags.iter().find(|(n, _)| !known.contains(&n.as_str())) {
        return Err(format!("unknown option --{name}"));
    }
    let given = |name: &str| flags.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    let port = number(&flags, "port", 8790)?;
    let host = given("listen").unwrap_or_else(|| "127.0.0.1".to_string());
    let listen = if host.contains(':') && !host.starts_with('[') { host } else { format!("{host}:{port}") };
    let data = given("data").map(std::path::PathBuf::from).unwrap_or_else(tabla::serve::default_data);
    let defaults = tabla::serve::limits::Limits::default();
    let count = |name: &str, default: usize| -> Result<usize, String> {
        let n = number(&flags, name, default as u64)?;
        usize::try_from(n).ok().filter(|n| *n > 0).ok_or_else(|| format!("--{name} is a number above 0"))
    };
    let seconds = |name: &str, default: std::time::Duration| -> Result<std::time::Duration, String> {
        Ok(std::time::Duration::from_secs(count(name, default.as_secs() as usize)? as u64))
    };
    let limits = tabla::serve::limits::Limits {
        connections_per_address: count("connections-per-address", defaults.connections_per_address)?,
        max_connections: count("max-connections", defaults.max_connections)?,
        max_rooms: count("max-rooms", defaults.max_rooms)?,
        rooms_per_hour: count("rooms-per-hour", defaults.rooms_per_hour as usize)? as u32,
        free_wrong_codes: count("free-wrong-codes", defaults.free_wrong_codes as usize)? as u32,
        header_timeout: seconds("header-timeout", defaults.header_timeout)?,
        hello_timeout: seconds("hello-timeout", defaults.hello_timeout)?,
        idle_timeout: seconds("idle-timeout", defaults.idle_timeout)?,
        behind_proxy: given("behind-proxy").is_some(),
    };
    tabla::serve::run(tabla::serve::Options {
        listen,
        data,
        redis: given("redis"),
        web: given("web").map(std::path::PathBuf::from),
        limits,
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn bench_command(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--serve") {
        let flags = flags(&args[1..])?;
        return bench::serve::run(&bench::serve::ServeOptions {
            rooms: number(&flags, "rooms", 500)? as usize,
            seconds: number(&flags, "seconds", 60)?,
            seed: number(&flags, "seed", 1)?,
            held: number(&flags, "connections", 5000)? as usize,
        });
    }
    let flags = flags(args)?;
    let game = match flags.iter().find(|(n, _)| n == "game") {
        Some((_, code)) => Some(tabla::rules::GameKind::parse(code)?),
        None => None,
    };
    bench::run(&bench::Options {
        game,
        games: number(&flags, "games", 200)? as usize,
        seed: number(&flags, "seed", 1)?,
        coach_only: match flags.iter().find(|(n, _)| n == "part") {
            None => false,
            Some((_, part)) if part == "coach" => true,
            Some((_, part)) => {
                return Err(format!("--part is 'coach' (the coach's figures alone), not '{part}'"));
            }
        },
    });
    Ok(())
}

#[cfg(feature = "app")]
fn app_command(args: &[String]) -> Result<(), String> {
    #[cfg(not(target_arch = "wasm32"))]
    let launch = tabla::app::Launch::from_flags(&flags(args)?)?;
    // In the browser the page's address holds the options (`?game=nard&players=robot`): each one
    // that cannot be used is said on the console and left out alone.
    #[cfg(target_arch = "wasm32")]
    let launch = {
        let _ = args;
        let (from_address, warnings) =
            tabla::app::Launch::from_address(&tabla::app::platform::web::address_flags());
        for warning in warnings {
            web_sys::console::warn_1(&format!("tabla address: {warning}").into());
        }
        from_address
    };
    match tabla::app::run(launch) {
        bevy::app::AppExit::Success => Ok(()),
        bevy::app::AppExit::Error(code) => Err(format!("the game ended with error {code}")),
    }
}

#[cfg(not(feature = "app"))]
fn app_command(_args: &[String]) -> Result<(), String> {
    Err("this tabla was built without its window (the `app` feature)".into())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        #[cfg(not(target_arch = "wasm32"))]
        Some("text") => text_command(&args[1..]),
        #[cfg(not(target_arch = "wasm32"))]
        Some("bench") => bench_command(&args[1..]),
        #[cfg(not(target_arch = "wasm32"))]
        Some("serve") => serve_command(&args[1..]),
        Some("help" | "--help" | "-h") => {
            println!("{USAGE}{TOUR_USAGE}");
            Ok(())
        }
        _ => app_command(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tabla: {message}\n\n{USAGE}{TOUR_USAGE}");
            ExitCode::FAILURE
        }
    }
}
