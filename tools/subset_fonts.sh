#!/usr/bin/env bash
# Cuts DejaVu Sans and DejaVu Sans Bold down to what Tabla writes: Latin-1 with Romanian's letters,
# Greek, punctuation, and the few arrows and signs the screens use (dice, a star, a note, check
# marks, squares), without hinting (egui does not use it). The browser download is ~0.5 MB lighter
# gzipped than with the whole fonts; tests/fonts.rs checks that every written character is here.
# Needs fonttools (`pip install fonttools`) and Debian's fonts-dejavu-core.
set -euo pipefail
cd "$(dirname "$0")/.."
chars="U+0020-007E,U+00A0-00FF,U+0102-0103,U+0218-021B,U+0370-03FF,U+2013-2014,U+2018-201E,\
U+2016,U+2022,U+2026,U+2039-203A,U+2190-2193,U+21B6-21B7,U+21BA-21BB,U+21E4-21E5,U+2212,U+2302,\
U+25A0-25A3,U+25B2,U+25B6,U+25B8,U+25C2,U+25C6,\
U+2605,U+266A,U+2680-2685,U+2699,U+2713-2718,U+FFFD"
for font in DejaVuSans DejaVuSans-Bold; do
    pyftsubset "/usr/share/fonts/truetype/dejavu/$font.ttf" --unicodes="$chars" --layout-features='*' \
        --no-hinting --output-file="assets/fonts/$font.ttf"
done
