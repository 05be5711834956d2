//! Where `tabla serve` keeps its rooms: a folder of one RON file per room (written by temporary
//! file and rename before any action is acknowledged), or Redis, where several servers share
//! every room, a room's events go out to all of them through pub/sub, and a room left a day
//! without an action expires by itself.

use crate::net::room::LIFETIME_SECS;
use std::path::{Path, PathBuf};

pub enum Store {
    Folder(PathBuf),
    Redis { client: redis::Client, connection: redis::aio::MultiplexedConnection },
}

/// The Redis channel of a room's messages, and the pattern every server listens to.
pub const CHANNELS: &str = "tabla:room:*";

fn channel(code: &str) -> String {
    format!("tabla:room:{code}")
}

fn record_key(code: &str) -> String {
    format!("tabla:record:{code}")
}

/// The key that says a room of the code was set aside, for a day.
fn aside_key(code: &str) -> String {
    format!("tabla:aside:{code}")
}

/// The key of a room's revision (named when it held the event count, which a room written then
/// still has there and reads as its revision).
fn revision_key(code: &str) -> String {
    format!("tabla:at:{code}")
}

/// Writes a room and its revision only if the revision is still the one it was read with (a room
/// another server changed meanwhile is read again), then passes its messages to every server.
const SAVE: &str = r"
local revision = redis.call('GET', KEYS[2])
if (revision or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4])
for i = 5, #ARGV do redis.call('PUBLISH', KEYS[3], ARGV[i]) end
return 1
";

impl Store {
    pub async fn open(data: &Path, redis_url: Option<&str>) -> Result<Store, String> {
        match redis_url {
            None => {
                std::fs::create_dir_all(data.join("rooms"))
                    .map_err(|e| format!("cannot make {}: {e}", data.display()))?;
                Ok(Store::Folder(data.to_path_buf()))
            }
            Some(url) => {
                let client = redis::Client::open(url).map_err(|e| format!("Redis at {url}: {e}"))?;
                let connection = client
                    .get_multiplexed_async_connection()
                    .await
                    .map_err(|e| format!("Redis at {url}: {e}"))?;
                Ok(Store::Redis { client, connection })
            }
        }
    }

    pub fn shared(&self) -> bool {
        matches!(self, Store::Redis { .. })
    }

    fn room_file(dir: &Path, code: &str) -> PathBuf {
        dir.join("rooms").join(format!("{code}.ron"))
    }

    /// The room as kept, `None` when no room has the code.
    pub async fn load(&self, code: &str) -> Result<Option<Vec<u8>>, String> {
        match self {
            Store::Folder(dir) => match std::fs::read(Store::room_file(dir, code)) {
                Ok(bytes) => Ok(Some(bytes)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e.to_string()),
            },
            Store::Redis { connection, .. } => {
                let mut connection = connection.clone();
                redis::cmd("GET")
                    .arg(record_key(code))
                    .query_async(&mut connection)
                    .await
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// Sets a room that cannot be read aside, never deleting it: in a folder as
    /// `<code>.ron.broken-N`, in Redis under `tabla:broken:<code>:<ms since 1970>`. Where it went.
    pub async fn set_aside(&self, code: &str) -> Result<String, String> {
        match self {
            Store::Folder(dir) => {
                let file = Store::room_file(dir, code);
                let aside = (1..)
                    .map(|n| file.with_extension(format!("ron.broken-{n}")))
                    .find(|aside| !aside.exists())
                    .expect("some number is free");
                std::fs::rename(&file, &aside).map_err(|e| e.to_string())?;
                Ok(aside.display().to_string())
            }
            Store::Redis { connection, .. } => {
                let mut connection = connection.clone();
                let aside = format!("tabla:broken:{code}:{}", super::now_ms());
                redis::pipe()
                    .cmd("RENAME")
                    .arg(record_key(code))
                    .arg(&aside)
                    .cmd("PERSIST")
                    .arg(&aside)
                    .cmd("DEL")
                    .arg(revision_key(code))
                    .cmd("SET")
                    .arg(aside_key(code))
                    .arg(&aside)
                    .arg("EX")
                    .arg(LIFETIME_SECS)
                    .query_async::<()>(&mut connection)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(aside)
            }
        }
    }

    /// Whether a room of the code was set aside (a client coming back to it is told so).
    pub async fn was_set_aside(&self, code: &str) -> bool {
        match self {
            Store::Folder(dir) => Store::room_file(dir, code).with_extension("ron.broken-1").exists(),
            Store::Redis { connection, .. } => {
                let mut connection = connection.clone();
                redis::cmd("EXISTS").arg(aside_key(code)).query_async(&mut connection).await.unwrap_or(false)
            }
        }
    }

    /// Writes the room, read at revision `read` (`None`: a new room), now at `revision`; with
    /// Redis, `messages` go to every server's clients of the room. `Ok(false)`: another server
    /// changed the room first, and nothing was written.
    pub async fn save(
        &self,
        code: &str,
        text: &str,
        read: Option<u64>,
        revision: u64,
        messages: &[String],
    ) -> Result<bool, String> {
        match self {
            Store::Folder(dir) => {
                let file = Store::room_file(dir, code);
                if read.is_none() && file.exists() {
                    return Ok(false);
                }
                write_by_rename(&file, text).map_err(|e| format!("cannot keep room {code}: {e}"))?;
                Ok(true)
            }
            Store::Redis { connection, .. } => {
                let mut connection = connection.clone();
                let save = redis::Script::new(SAVE);
                let mut script = save.prepare_invoke();
                script.key(record_key(code)).key(revision_key(code)).key(channel(code));
                script.arg(read.map_or_else(String::new, |read| read.to_string()));
                script.arg(text).arg(revision.to_string()).arg(LIFETIME_SECS);
                for message in messages {
                    script.arg(message);
                }
                let written: i64 = script.invoke_async(&mut connection).await.map_err(|e| e.to_string())?;
                Ok(written == 1)
            }
        }
    }

    /// With Redis, passes a message to every server's clients of the room.
    pub async fn publish(&self, code: &str, message: &str) -> Result<(), String> {
        if let Store::Redis { connection, .. } = self {
            let mut connection = connection.clone();
            let _: i64 = redis::cmd("PUBLISH")
                .arg(channel(code))
                .arg(message)
                .query_async(&mut connection)
                .await
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    pub async fn remove(&self, code: &str) -> Result<(), String> {
        match self {
            Store::Folder(dir) => match std::fs::remove_file(Store::room_file(dir, code)) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e.to_string()),
                _ => Ok(()),
            },
            Store::Redis { connection, .. } => {
                let mut connection = connection.clone();
                let _: i64 = redis::cmd("DEL")
                    .arg(record_key(code))
                    .arg(revision_key(code))
                    .query_async(&mut connection)
                    .await
                    .map_err(|e| e.to_string())?;
                Ok(())
            }
        }
    }

    /// The codes of the rooms in the folder (Redis forgets its own).
    pub fn folder_codes(&self) -> Vec<String> {
        let Store::Folder(dir) = self else { return Vec::new() };
        let Ok(entries) = std::fs::read_dir(dir.join("rooms")) else { return Vec::new() };
        entries
            .filter_map(|entry| entry.ok()?.file_name().to_str()?.strip_suffix(".ron").map(str::to_string))
            .collect()
    }

    /// Every message Redis passes on for any room, as (room code, message).
    pub async fn subscribe(
        &self,
    ) -> Result<impl futures_util::Stream<Item = (String, String)> + use<>, String> {
        use futures_util::StreamExt;
        let Store::Redis { client, .. } = self else {
            return Err("only Redis passes messages between servers".into());
        };
        let mut pubsub = client.get_async_pubsub().await.map_err(|e| e.to_string())?;
        pubsub.psubscribe(CHANNELS).await.map_err(|e| e.to_string())?;
        Ok(pubsub.into_on_message().filter_map(|message| async move {
            let code = message.get_channel_name().strip_prefix("tabla:room:")?.to_string();
            let payload: String = message.get_payload().ok()?;
            Some((code, payload))
        }))
    }
}

/// Writes `text` to a temporary file beside `file`, then renames it over `file`: a reader sees the
/// old room or the new one, never half of one.
pub fn write_by_rename(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let temporary = file.with_extension("ron.tmp");
    let mut out = std::fs::File::create(&temporary)?;
    // No fsync: a server killed keeps what it wrote (the system holds it); a machine losing
    // power mid-game is not what a family's server guards against, and every action would wait.
    out.write_all(text.as_bytes())?;
    std::fs::rename(&temporary, file)
}
