#!/usr/bin/env bash
# Cuts DejaVu Sans and DejaVu Sans Bold down to what Tabla writes: Latin with Romanian and Italian,
# Greek, punctuation, arrows and the few signs the screens use (chess, dice, stars, check marks,
# squares), without hinting (egui does not use it). The browser download is ~0.5 MB lighter
# gzipped than with the whole fonts; tests/fonts.rs checks that every written character is here.
# Needs fonttools (`pip install fonttools`) and Debian's fonts-dejavu-core.
set -euo pipefail
cd "$(dirname "$0")/.."
chars="U+0020-007E,U+00A0-017F,U+0218-021B,U+02C6-02DD,U+0370-03FF,U+2010-2027,U+2030-203A,U+20AC,\
U+2122,U+2190-21FF,U+2302,U+25A0-25FF,U+2605-2606,U+2610-2612,U+265A-266F,U+2680-2685,U+2699,\
U+2713-2718,U+FFFD"
for font in DejaVuSans DejaVuSans-Bold; do
    pyftsubset "/usr/share/fonts/truetype/dejavu/$font.ttf" --unicodes="$chars" --layout-features='*' \
        --no-hinting --output-file="assets/fonts/$font.ttf"
done
