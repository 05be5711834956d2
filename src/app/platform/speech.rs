//! Tabla speaks: what a child must understand is said aloud in the child's language, so a child
//! who cannot read yet plays alone. Whatever is to be said comes to one `Speaker` as `Speech`
//! messages (a message key with its arguments, in a language), and the speaker says it through
//! the platform's own speech: on the desktop espeak-ng, one process an utterance (no daemon to
//! start, an utterance cut short by ending its process, the voices known before anything is
//! said); in the browser the page's Web Speech API (web/index.html). A recording of a voice pack
//! is played instead where there is one (`voice_pack`). A language with no voice is said once on
//! the grown-ups' page and stays silent: never one language in another's voice. Nothing is said
//! with the sound off or when reading aloud is off for the child; every utterance logs
//! `tabla say <lang> <text>`.

use super::settings::{Settings, Words};
use crate::i18n::Language;
pub use crate::i18n::spoken;
pub use crate::progress::Reading;
use bevy::prelude::*;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

/// The reading of whoever plays now: the child's, or the device's when no child plays (the
/// children keep it up to date).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadingNow(pub Reading);

/// One thing to say: its words in a language, and the message key they are, when they are a
/// key's words alone (a voice pack may have that key recorded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Utterance {
    pub language: Language,
    pub key: Option<String>,
    pub text: String,
}

impl Utterance {
    /// A message key's words, in their spoken form where the written one has signs a voice
    /// cannot say (`say_<key>`: "Tap ✔" is said "Tap the tick").
    pub fn of(words: &Words, key: &str) -> Utterance {
        Utterance::filled(words, key, &[])
    }

    /// A message key's words with its arguments filled in, in their spoken form.
    pub fn filled(words: &Words, key: &str, args: &[(&str, &str)]) -> Utterance {
        let key = spoken_key(words, key);
        let text = words.fill(&key, args);
        Utterance { language: words.language, key: args.is_empty().then_some(key), text }
    }

    /// Words a game put together from its message keys (a round's report, a seat's name).
    pub fn words(words: &Words, text: impl Into<String>) -> Utterance {
        Utterance { language: words.language, key: None, text: text.into() }
    }
}

/// The key of a message's spoken form: `say_<key>` where the words have one, else the key.
pub fn spoken_key(words: &Words, key: &str) -> String {
    let spoken = format!("say_{key}");
    if words.has(&spoken) { spoken } else { key.to_string() }
}

/// What the speaker is asked.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum Speech {
    /// Say this now, cutting short whatever is being said.
    Say(Utterance),
    /// Say this once what is being said is over (a question's answers after the question).
    Then(Utterance),
    /// Say the last thing said again, with what followed it (the 🔊 button).
    Again,
    /// Say nothing more.
    Hush,
}

/// Says the first of `all` now, cutting short what is being said, and the others after it (a
/// question, then its answers).
pub fn say_in_turn(speech: &mut MessageWriter<Speech>, all: impl IntoIterator<Item = Utterance>) {
    let mut all = all.into_iter();
    if let Some(first) = all.next() {
        speech.write(Speech::Say(first));
    }
    for next in all {
        speech.write(Speech::Then(next));
    }
}

/// Something said, as the tests and the log see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub language: Language,
    pub text: String,
    /// Played from a voice pack's recording.
    pub recorded: bool,
}

/// The one speaker of the app.
#[derive(Resource)]
pub struct Speaker {
    voice: Box<dyn Voice>,
    waiting: VecDeque<Utterance>,
    /// The last thing said with what followed it, for `Speech::Again`.
    last: Vec<Utterance>,
    /// Everything said, oldest first (the last `KEPT_SAID`).
    pub said: VecDeque<Said>,
    /// Languages this device has no voice for: said once on the grown-ups' page.
    pub no_voice: BTreeSet<Language>,
    /// Recordings of messages, where a family or a translator made some.
    pack: VoicePack,
    /// A recording to play now (the desktop's player takes it), and the one playing.
    pub(super) to_play: Option<PathBuf>,
    pub(super) playing: Option<Entity>,
    pub(super) cut_recording: bool,
    plays_recordings: bool,
}

/// A voice pack: recordings of messages without arguments, by message key, in a folder per
/// language (`<lang>/index.ron`, a map of message key to file, beside the files). On the desktop
/// it is looked for in `TABLA_VOICE_DIR`, then the data folder's `voice/`; the browser fetches
/// `voice/<lang>/` beside the page when the language is chosen (web/index.html).
#[derive(Default)]
pub struct VoicePack {
    folders: Vec<PathBuf>,
    read: BTreeMap<Language, BTreeMap<String, PathBuf>>,
}

impl VoicePack {
    /// A pack read from the first of `folders` that has a language's index, when it is asked for.
    pub fn in_folders(folders: Vec<PathBuf>) -> VoicePack {
        VoicePack { folders, read: BTreeMap::new() }
    }

    /// The recording of `key` in `language` (under its spoken form's key or its own), if the pack
    /// has one whose file is a WAV recording.
    fn recording(&mut self, language: Language, key: &str) -> Option<PathBuf> {
        let folders = &self.folders;
        let index = self.read.entry(language).or_insert_with(|| {
            folders.iter().find_map(|folder| read_index(&folder.join(language.code()))).unwrap_or_default()
        });
        let file = index.get(key).or_else(|| key.strip_prefix("say_").and_then(|own| index.get(own)))?;
        if is_wav(file) {
            return Some(file.clone());
        }
        tracing::warn!("{}: not a WAV recording, said by the voice instead", file.display());
        None
    }
}

/// Whether a file begins as a WAV recording does (the player would stop the app on anything else).
fn is_wav(file: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 12];
    std::fs::File::open(file).and_then(|mut f| f.read_exact(&mut head)).is_ok()
        && &head[..4] == b"RIFF"
        && &head[8..] == b"WAVE"
}

/// A language's index: each key's file, beside the index; `None` without a readable index.
fn read_index(folder: &std::path::Path) -> Option<BTreeMap<String, PathBuf>> {
    let text = std::fs::read_to_string(folder.join("index.ron")).ok()?;
    match ron::from_str::<BTreeMap<String, String>>(&text) {
        Ok(index) => Some(index.into_iter().map(|(key, file)| (key, folder.join(file))).collect()),
        Err(why) => {
            tracing::warn!("{}: not a voice pack's index: {why}", folder.join("index.ron").display());
            None
        }
    }
}

/// How much of what was said the speaker remembers.
const KEPT_SAID: usize = 200;

impl Speaker {
    pub fn new(voice: Box<dyn Voice>) -> Speaker {
        Speaker {
            voice,
            waiting: VecDeque::new(),
            last: Vec::new(),
            said: VecDeque::new(),
            no_voice: BTreeSet::new(),
            pack: VoicePack::default(),
            to_play: None,
            playing: None,
            cut_recording: false,
            plays_recordings: false,
        }
    }

    /// The speaker with a voice pack.
    pub fn with_pack(self, pack: VoicePack) -> Speaker {
        Speaker { pack, ..self }
    }

    /// What was said, oldest first, as text.
    pub fn said_texts(&self) -> Vec<String> {
        self.said.iter().map(|said| said.text.clone()).collect()
    }

    fn hush(&mut self) {
        self.waiting.clear();
        self.voice.stop();
        self.to_play = None;
        self.cut_recording = self.playing.is_some();
    }

    fn obey(&mut self, speech: Speech) {
        if let Speech::Say(asked) | Speech::Then(asked) = &speech {
            // When it appeared, against `tabla say` when it is said (the browser test measures).
            super::web::say_line(&format!("tabla asked {} {}", asked.language.code(), spoken(&asked.text)));
        }
        match speech {
            Speech::Say(utterance) => {
                self.hush();
                self.last = vec![utterance.clone()];
                self.waiting.push_back(utterance);
            }
            Speech::Then(utterance) => {
                self.last.push(utterance.clone());
                self.waiting.push_back(utterance);
            }
            Speech::Again => {
                self.hush();
                self.waiting.extend(self.last.iter().cloned());
            }
            Speech::Hush => self.hush(),
        }
    }

    /// Says the next utterance waiting once the voice is free.
    fn go_on(&mut self, reading: Reading) {
        if self.voice.busy() || self.playing.is_some() || self.to_play.is_some() {
            return;
        }
        let Some(utterance) = self.waiting.pop_front() else { return };
        let text = spoken(&utterance.text);
        if text.is_empty() {
            return;
        }
        // A recording where the pack has one, even for a language with no voice (read from a
        // folder on the desktop; the page looks in its own pack).
        let recording = utterance.key.as_deref().and_then(|key| self.pack.recording(utterance.language, key));
        if recording.is_none() && !self.voice.has(utterance.language) {
            if self.no_voice.insert(utterance.language) {
                tracing::info!("no voice for {} here: Tabla stays silent in it", utterance.language.code());
            }
            return;
        }
        let recorded = match recording {
            Some(file) => {
                // Without a window there is no player: the recording counts as played.
                if self.plays_recordings {
                    self.to_play = Some(file);
                }
                true
            }
            None => self.voice.speak(&utterance, &text, reading.slow),
        };
        super::web::say_line(&format!("tabla say {} {text}", utterance.language.code()));
        self.said.push_back(Said { language: utterance.language, text, recorded });
        while self.said.len() > KEPT_SAID {
            self.said.pop_front();
        }
    }
}

/// A platform's speech.
pub trait Voice: Send + Sync {
    /// Whether it can speak `language` in that language's own voice.
    fn has(&mut self, language: Language) -> bool;
    /// Starts saying `text` (the utterance's words as they are spoken); `true` when a recording
    /// is played for it.
    fn speak(&mut self, utterance: &Utterance, text: &str, slow: bool) -> bool;
    /// Cuts short what is being said.
    fn stop(&mut self);
    /// The language was chosen: its voice pack, if any, is made ready (the browser fetches it).
    fn prepare(&mut self, _language: Language) {}
    /// Something is still being said.
    fn busy(&mut self) -> bool;
}

/// A voice that only listens: the speaker without a window (the headless tests read what it was
/// asked to say), and any language counts as spoken.
pub struct Listener;

impl Voice for Listener {
    fn has(&mut self, _language: Language) -> bool {
        true
    }
    fn speak(&mut self, _utterance: &Utterance, _text: &str, _slow: bool) -> bool {
        false
    }
    fn stop(&mut self) {}
    fn busy(&mut self) -> bool {
        false
    }
}

/// The speaker, silent (for the app without a window); `voice_plugin` gives it the platform's
/// voice.
pub(super) fn plugin(app: &mut App) {
    app.add_message::<Speech>().init_resource::<ReadingNow>();
    app.insert_resource(Speaker::new(Box::new(Listener)).with_pack(data_pack(app)));
    app.add_systems(PostUpdate, speak);
}

/// The platform's own voice for the speaker, with the voice pack of the data folder (or of
/// `TABLA_VOICE_DIR`), and the desktop's player of its recordings.
pub(super) fn voice_plugin(app: &mut App) {
    let speaker = Speaker::new(system::voice()).with_pack(data_pack(app));
    app.insert_resource(Speaker { plays_recordings: cfg!(not(target_arch = "wasm32")), ..speaker });
    #[cfg(not(target_arch = "wasm32"))]
    app.add_systems(PostUpdate, system::play_recordings.after(speak));
}

/// The voice pack of the app's data folder (or of `TABLA_VOICE_DIR`).
fn data_pack(app: &App) -> VoicePack {
    VoicePack::in_folders(pack_folders(app.world().resource::<super::store::Store>()))
}

/// Where a voice pack is looked for, first found first.
pub fn pack_folders(store: &super::store::Store) -> Vec<PathBuf> {
    let from_env = std::env::var_os("TABLA_VOICE_DIR").map(PathBuf::from);
    from_env.into_iter().chain(store.dir().map(|dir| dir.join("voice"))).collect()
}

fn speak(
    mut asked: MessageReader<Speech>,
    mut speaker: ResMut<Speaker>,
    settings: Res<Settings>,
    reading: Res<ReadingNow>,
    mut wake: ResMut<super::wake::WakeWithin>,
) {
    if settings.is_changed() {
        speaker.voice.prepare(settings.language);
    }
    let allowed = settings.sound && reading.0.aloud;
    for speech in asked.read() {
        if allowed {
            speaker.obey(speech.clone());
        }
    }
    if !allowed && (settings.is_changed() || reading.is_changed()) {
        speaker.hush();
    }
    if allowed {
        speaker.go_on(reading.0);
    }
    // What waits its turn is said when the voice is free: a window at rest looks again soon.
    if !speaker.waiting.is_empty() {
        wake.within(0.1);
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod system {
    use super::{Utterance, Voice};
    use crate::i18n::Language;
    use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
    use bevy::prelude::*;
    use std::collections::BTreeMap;
    use std::io::Write;
    use std::process::{Child, Command, Stdio};

    /// espeak-ng, one process an utterance.
    pub struct Espeak {
        /// The voices espeak-ng has, asked once (`None`: not asked yet; empty: no espeak-ng).
        voices: Option<BTreeMap<Language, String>>,
        speaking: Option<Child>,
    }

    pub fn voice() -> Box<dyn Voice> {
        Box::new(Espeak { voices: None, speaking: None })
    }

    /// Each language's espeak-ng voice, from `espeak-ng --voices` (its second column is the
    /// language).
    fn voices() -> BTreeMap<Language, String> {
        let listed = Command::new("espeak-ng").arg("--voices").stderr(Stdio::null()).output();
        let Ok(listed) = listed else {
            tracing::info!("espeak-ng is not installed: Tabla cannot speak on this computer");
            return BTreeMap::new();
        };
        let text = String::from_utf8_lossy(&listed.stdout);
        let languages: Vec<&str> = text.lines().filter_map(|line| line.split_whitespace().nth(1)).collect();
        Language::ALL
            .into_iter()
            .filter_map(|language| {
                // English is spoken in its British voice, the others in their own.
                let wanted = if language == Language::En { "en-gb" } else { language.code() };
                languages.iter().find(|&&l| l == wanted).map(|l| (language, l.to_string()))
            })
            .collect()
    }

    impl Voice for Espeak {
        fn has(&mut self, language: Language) -> bool {
            self.voices.get_or_insert_with(voices).contains_key(&language)
        }

        fn speak(&mut self, utterance: &Utterance, text: &str, slow: bool) -> bool {
            self.stop();
            let Some(voice) = self.voices.get_or_insert_with(voices).get(&utterance.language) else {
                return false;
            };
            let words_a_minute = if slow { "120" } else { "160" };
            let started = Command::new("espeak-ng")
                .args(["-v", voice, "-s", words_a_minute, "--stdin"])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            match started {
                Ok(mut child) => {
                    if let Some(mut input) = child.stdin.take() {
                        let _ = input.write_all(text.as_bytes());
                    }
                    self.speaking = Some(child);
                }
                Err(why) => tracing::warn!("espeak-ng could not start: {why}"),
            }
            false
        }

        fn stop(&mut self) {
            if let Some(mut child) = self.speaking.take() {
                let _ = child.kill();
                let _ = child.wait();
            }
        }

        fn busy(&mut self) -> bool {
            let Some(child) = self.speaking.as_mut() else { return false };
            if matches!(child.try_wait(), Ok(None)) {
                return true;
            }
            self.speaking = None;
            false
        }
    }

    /// Plays a voice pack's recording the speaker chose, through Bevy's audio; a recording cut
    /// short is stopped by taking its player away.
    pub fn play_recordings(
        mut speaker: ResMut<super::Speaker>,
        mut sources: ResMut<Assets<AudioSource>>,
        players: Query<(), With<AudioPlayer>>,
        mut commands: Commands,
    ) {
        if speaker.cut_recording {
            speaker.cut_recording = false;
            if let Some(playing) = speaker.playing.take() {
                commands.entity(playing).try_despawn();
            }
        }
        if speaker.playing.is_some_and(|playing| !players.contains(playing)) {
            speaker.playing = None;
        }
        let Some(file) = speaker.to_play.take() else { return };
        match std::fs::read(&file) {
            Ok(bytes) => {
                let source = sources.add(AudioSource { bytes: bytes.into() });
                speaker.playing = Some(commands.spawn((AudioPlayer(source), PlaybackSettings::DESPAWN)).id());
            }
            Err(why) => tracing::warn!("{}: {why}", file.display()),
        }
    }

    impl Drop for Espeak {
        fn drop(&mut self) {
            self.stop();
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod system {
    use super::{Utterance, Voice};
    use crate::i18n::Language;
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        #[wasm_bindgen(js_namespace = tablaSpeech, js_name = has)]
        fn page_has(tag: &str) -> bool;
        #[wasm_bindgen(js_namespace = tablaSpeech, js_name = speak)]
        fn page_speak(tag: &str, text: &str, rate: f32, key: &str) -> bool;
        #[wasm_bindgen(js_namespace = tablaSpeech, js_name = stop)]
        fn page_stop();
        #[wasm_bindgen(js_namespace = tablaSpeech, js_name = busy)]
        fn page_busy() -> bool;
        #[wasm_bindgen(js_namespace = tablaSpeech, js_name = pack)]
        fn page_pack(tag: &str);
    }

    /// The page's Web Speech (web/index.html keeps the voices and a voice pack's recordings).
    pub struct WebSpeech;

    pub fn voice() -> Box<dyn Voice> {
        Box::new(WebSpeech)
    }

    /// The language's tag, as a voice names it.
    fn tag(language: Language) -> &'static str {
        match language {
            Language::Ro => "ro-RO",
            Language::En => "en",
            Language::It => "it-IT",
            Language::El => "el-GR",
        }
    }

    impl Voice for WebSpeech {
        fn has(&mut self, language: Language) -> bool {
            page_has(tag(language))
        }
        fn speak(&mut self, utterance: &Utterance, text: &str, slow: bool) -> bool {
            let key = utterance.key.as_deref().unwrap_or_default();
            page_speak(tag(utterance.language), text, if slow { 0.75 } else { 1.0 }, key)
        }
        fn stop(&mut self) {
            page_stop();
        }
        fn busy(&mut self) -> bool {
            page_busy()
        }
        fn prepare(&mut self, language: Language) {
            page_pack(tag(language));
        }
    }
}
