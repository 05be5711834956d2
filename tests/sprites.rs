//! The piece pictures read at a glance: a white piece is mostly light inside its outline and a
//! black one mostly dark, so a child tells the sides apart by colour. (The white bishop once had
//! a black body; this would have caught it.)

use std::path::Path;

/// The share of light and of dark pixels among a picture's opaque ones.
fn light_and_dark(name: &str) -> (f64, f64) {
    let path = Path::new("assets/images").join(format!("{name}.png"));
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("its pixels");
    let channels = info.color_type.samples();
    let (mut opaque, mut light, mut dark) = (0u32, 0u32, 0u32);
    for pixel in pixels[..info.buffer_size()].chunks_exact(channels) {
        let (rgb, alpha) = match channels {
            4 => ([pixel[0], pixel[1], pixel[2]], pixel[3]),
            2 => ([pixel[0]; 3], pixel[1]),
            _ => panic!("{name} has no transparency ({channels} channels)"),
        };
        if alpha < 200 {
            continue;
        }
        opaque += 1;
        let luma = 0.299 * rgb[0] as f64 + 0.587 * rgb[1] as f64 + 0.114 * rgb[2] as f64;
        if luma > 170.0 {
            light += 1;
        } else if luma < 90.0 {
            dark += 1;
        }
    }
    assert!(opaque > 500, "{name} is nearly empty");
    (light as f64 / opaque as f64, dark as f64 / opaque as f64)
}

const PIECES: [&str; 4] = ["bishop", "knight", "pawn", "rook"];

#[test]
fn white_chess_pieces_are_light_inside_their_outline() {
    for piece in PIECES {
        let (light, dark) = light_and_dark(&format!("white_{piece}"));
        assert!(light > 0.55 && dark < 0.4, "white {piece}: {light:.2} light, {dark:.2} dark");
    }
}

#[test]
fn black_chess_pieces_are_dark_inside_their_outline() {
    for piece in PIECES {
        let (light, dark) = light_and_dark(&format!("black_{piece}"));
        assert!(dark > 0.55 && light < 0.4, "black {piece}: {light:.2} light, {dark:.2} dark");
    }
}

#[test]
fn crazy_nard_checkers_are_light_and_dark() {
    let (light, _) = light_and_dark("nard_white");
    let (_, dark) = light_and_dark("nard_black");
    assert!(light > 0.6, "the white checker: {light:.2} light");
    assert!(dark > 0.5, "the black checker: {dark:.2} dark");
}
