#!/usr/bin/env bash
# Cuts DejaVu Sans and DejaVu Sans Bold down to the Unicode blocks Tabla can write (Latin with
# Romanian and Italian, Greek, punctuation, arrows, mathematical and technical signs, geometric
# shapes, chess, dice and other symbols), so the browser download is ~0.4 MB lighter gzipped.
# Needs fonttools (`pip install fonttools`) and Debian's fonts-dejavu-core.
set -euo pipefail
cd "$(dirname "$0")/.."
blocks="U+0020-007E,U+00A0-024F,U+0259,U+02B0-02FF,U+0300-036F,U+0370-03FF,U+1E00-1EFF,U+2000-206F,\
U+20A0-20CF,U+2100-214F,U+2190-21FF,U+2200-22FF,U+2300-23FF,U+2460-24FF,U+2500-25FF,U+2600-26FF,\
U+2700-27BF,U+FFFD"
for font in DejaVuSans DejaVuSans-Bold; do
    pyftsubset "/usr/share/fonts/truetype/dejavu/$font.ttf" --unicodes="$blocks" --layout-features='*' \
        --output-file="assets/fonts/$font.ttf"
done
