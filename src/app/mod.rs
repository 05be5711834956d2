//! The Bevy side of Tabla.
