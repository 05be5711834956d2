#!/usr/bin/env python3
"""Makes Tabla's pictures and sounds: assets/images/*.png and assets/sounds/*.wav.

Run it again after changing it; its output is committed, so building the game never needs it.
Needs Pillow and Debian's fonts-dejavu-core and fonts-noto-color-emoji (see assets/LICENSES.md).
`make_art.py halma` makes only the Halma pictures, with Pillow alone.
"""
import math
import random
import shutil
import struct
import subprocess
import sys
import wave
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "assets" / "images"
SOUNDS = ROOT / "assets" / "sounds"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
EMOJI = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
SIZE = 192

INK = (34, 30, 28, 255)
PAPER = (252, 250, 244, 255)

# Outline glyph and filled glyph of each chess piece in DejaVu Sans.
CHESS = {"knight": ("\u2658", "\u265e"), "pawn": ("\u2659", "\u265f"),
         "rook": ("\u2656", "\u265c"), "bishop": ("\u2657", "\u265d")}


def glyph_layer(char, fill, size=SIZE, scale=0.86, stroke=0, stroke_fill=None):
    font = ImageFont.truetype(DEJAVU, int(size * scale))
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    box = draw.textbbox((0, 0), char, font=font, stroke_width=stroke)
    x = (size - (box[2] - box[0])) / 2 - box[0]
    y = (size - (box[3] - box[1])) / 2 - box[1]
    draw.text((x, y), char, font=font, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)
    return layer


def with_shadow(piece, size=SIZE, shift=(4, 7), blur=5):
    """A soft shadow under the piece lifts it off the board."""
    alpha = piece.split()[3]
    shadow = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    shadow.putalpha(alpha.point(lambda a: int(a * 0.35)))
    shadow = shadow.transform(shadow.size, Image.AFFINE, (1, 0, -shift[0], 0, 1, -shift[1]))
    return Image.alpha_composite(shadow.filter(ImageFilter.GaussianBlur(blur)), piece)


def chess_piece(name, white):
    outline, filled = CHESS[name]
    if white:
        body = glyph_layer(filled, PAPER, stroke=5, stroke_fill=INK)
        body = Image.alpha_composite(body, glyph_layer(outline, INK))
    else:
        body = glyph_layer(filled, (40, 36, 40, 255), stroke=6, stroke_fill=(236, 228, 214, 255))
    return with_shadow(body)


def emoji(char, size=SIZE):
    font = ImageFont.truetype(EMOJI, 109)
    layer = Image.new("RGBA", (160, 160), (0, 0, 0, 0))
    ImageDraw.Draw(layer).text((16, 12), char, font=font, embedded_color=True)
    layer = layer.crop(layer.getbbox())
    side = max(layer.size)
    square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    square.paste(layer, ((side - layer.width) // 2, (side - layer.height) // 2))
    return square.resize((size, size), Image.LANCZOS)


def token(char, disc, rim):
    """An emoji on a round token, so it reads as a game piece on light and dark squares."""
    layer = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    draw.ellipse((10, 10, SIZE - 10, SIZE - 10), fill=disc, outline=rim, width=8)
    picture = emoji(char, int(SIZE * 0.66))
    layer.alpha_composite(picture, ((SIZE - picture.width) // 2, (SIZE - picture.height) // 2 + 2))
    return with_shadow(layer)


def clockwise_ring():
    """A faint ring with arrowheads going clockwise: the way the pieces race in Making Circles."""
    size = 512
    layer = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    colour = (40, 120, 200, 120)
    box = (40, 40, size - 40, size - 40)
    for start in range(0, 360, 90):
        draw.arc(box, start=start + 8, end=start + 72, fill=colour, width=22)
        # Arrowhead at the end of each arc, pointing clockwise (Pillow's angles run clockwise).
        end = math.radians(start + 72)
        c, r = size / 2, (size - 80) / 2
        tip = (c + r * math.cos(end + 0.12), c + r * math.sin(end + 0.12))
        back = (c + r * math.cos(end - 0.02), c + r * math.sin(end - 0.02))
        normal = (math.cos(end), math.sin(end))
        draw.polygon([tip, (back[0] + normal[0] * 26, back[1] + normal[1] * 26),
                      (back[0] - normal[0] * 26, back[1] - normal[1] * 26)], fill=colour)
    return layer


def dot(color, radius):
    layer = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    c = SIZE / 2
    ImageDraw.Draw(layer).ellipse((c - radius, c - radius, c + radius, c + radius), fill=color)
    return layer


def ring(color, width):
    layer = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    ImageDraw.Draw(layer).ellipse((6, 6, SIZE - 6, SIZE - 6), outline=color, width=width)
    return layer


def tile(draw_content, colors):
    """A menu picture: a rounded card with a small checkerboard behind the content."""
    size = 256
    card = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    board = Image.new("RGBA", (size, size), colors[0])
    draw = ImageDraw.Draw(board)
    cell = size // 4
    for r in range(4):
        for f in range(4):
            if (r + f) % 2:
                draw.rectangle((f * cell, r * cell, f * cell + cell, r * cell + cell), fill=colors[1])
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size - 1, size - 1), radius=40, fill=255)
    card.paste(board, (0, 0), mask)
    draw_content(card)
    return card


def paste_center(card, picture, center, width):
    picture = picture.resize((width, width), Image.LANCZOS)
    card.alpha_composite(picture, (int(center[0] - width / 2), int(center[1] - width / 2)))


def menu_knight_hunt(card):
    paste_center(card, chess_piece("pawn", False), (70, 190), 100)
    paste_center(card, chess_piece("pawn", True), (190, 70), 100)
    paste_center(card, chess_piece("knight", True), (128, 128), 190)


def menu_circles(card):
    draw = ImageDraw.Draw(card)
    draw.arc((38, 38, 218, 218), start=200, end=520, fill=(214, 64, 52, 255), width=14)
    draw.polygon([(206, 92), (232, 132), (188, 128)], fill=(214, 64, 52, 255))
    paste_center(card, chess_piece("rook", True), (100, 128), 120)
    paste_center(card, chess_piece("bishop", False), (160, 128), 120)


def menu_bunnies(card):
    paste_center(card, emoji("\U0001F955"), (190, 70), 90)
    paste_center(card, emoji("\U0001F434"), (70, 74), 96)
    paste_center(card, emoji("\U0001F430"), (128, 160), 150)


# Halma: four armies that differ by colour and by shape, so a colour-blind child tells them apart.
HALMA = {"red": ((216, 69, 43), "circle"), "yellow": ((242, 194, 48), "triangle"),
         "blue": ((47, 111, 208), "square"), "purple": ((154, 79, 192), "diamond")}
# Each shape on a 128-pixel piece: (corners or 0 for the circle, turn in degrees, circumradius,
# corner rounding). A regular polygon's centroid is its centre, so the triangle's visual centre
# is the picture's centre.
HALMA_SHAPES = {"circle": (0, 0, 50, 0), "triangle": (3, -90, 66, 8),
                "square": (4, 45, 45 * math.sqrt(2), 10), "diamond": (4, 0, 55, 7)}
# A light streak inside the upper left edge of each shape: (offset from the centre, length,
# thickness, angle in degrees), on the 128-pixel piece.
HALMA_GLINTS = {"circle": ((-21, -21), 24, 10, -45), "triangle": ((-13, -2), 22, 9, -60),
                "square": ((-20, -20), 22, 10, -45), "diamond": ((-15, -15), 22, 9, -45)}
SUPER = 4  # shapes are drawn this many times larger, then scaled down for smooth edges


def halma_mask(shape, size, scale, grow=0.0):
    """The shape as a smooth mask, drawn `scale` times its 128-pixel size, grown outwards by
    `grow` pixels (shrunk when negative), centred in a size x size picture."""
    corners, turn, radius, rounding = HALMA_SHAPES[shape]
    big = size * SUPER
    c = big / 2
    k = scale * SUPER
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    if corners == 0:
        r = (radius + grow) * k
        draw.ellipse((c - r, c - r, c + r, c + r), fill=255)
        return mask.resize((size, size), Image.LANCZOS)
    # A regular polygon with rounded corners is a smaller polygon (same centre, inradius less
    # the rounding) grown by the rounding: around each of its corners runs an arc, from the
    # normal of one edge to the normal of the next.
    inradius = radius * math.cos(math.pi / corners)
    bloat = max(0.0, rounding + grow)
    core = radius * (inradius - rounding if bloat > 0 else inradius + grow) / inradius
    outline = []
    for i in range(corners):
        angle = turn + 360 * i / corners
        x = c + core * k * math.cos(math.radians(angle))
        y = c + core * k * math.sin(math.radians(angle))
        for step in range(17):
            a = math.radians(angle - 180 / corners + 360 / corners * step / 16)
            outline.append((x + bloat * k * math.cos(a), y + bloat * k * math.sin(a)))
    draw.polygon(outline, fill=255)
    return mask.resize((size, size), Image.LANCZOS)


def flat(color, mask, alpha=255):
    """A layer of one colour seen through a mask (scaled masks keep the colour clean at the edges)."""
    layer = Image.new("RGBA", mask.size, tuple(color[:3]) + (255,))
    layer.putalpha(mask.point(lambda a: a * alpha // 255))
    return layer


def glint(shape, size, scale):
    """The small light streak, as a mask."""
    (dx, dy), length, thick, angle = HALMA_GLINTS[shape]
    big = size * SUPER
    k = scale * SUPER
    cx, cy = big / 2 + dx * k, big / 2 + dy * k
    a = math.radians(angle)
    ux, uy = math.cos(a) * length / 2 * k, math.sin(a) * length / 2 * k
    r = thick / 2 * k
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    draw.line([(cx - ux, cy - uy), (cx + ux, cy + uy)], fill=255, width=int(2 * r))
    for x, y in ((cx - ux, cy - uy), (cx + ux, cy + uy)):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return mask.resize((size, size), Image.LANCZOS)


def halma_piece(army, size=128):
    """A flat, bright shape with a thick dark outline, a small light streak and a soft shadow."""
    color, shape = HALMA[army]
    scale = size / 128
    stroke = 7.5
    body = flat(INK, halma_mask(shape, size, scale))
    inside = halma_mask(shape, size, scale, -stroke)
    body.alpha_composite(flat(color, inside))
    streak = ImageChops.multiply(glint(shape, size, scale), halma_mask(shape, size, scale, -stroke - 3))
    body.alpha_composite(flat((255, 255, 255), streak, 190))
    return with_shadow(body, size, shift=(round(3 * scale), round(5 * scale)), blur=3.5 * scale)


def halma_goal(army, size=96):
    """The shape's outline alone, faint: where that army must go."""
    color, shape = HALMA[army]
    # Pale yellow would vanish on the light squares: its ghost is a deeper gold.
    color = {"yellow": (205, 145, 0)}.get(army, color)
    scale = 0.70 * size / (0.80 * 128)
    line = ImageChops.subtract(halma_mask(shape, size, scale), halma_mask(shape, size, scale, -7 / scale))
    return flat(color, line, 150)


def hop_arc(centre, rx, ry, t):
    """The point a fraction t of the way along the upper half of an ellipse, left end to right
    end (equal steps of t are equal steps along the curve)."""
    steps = 400
    points = [(centre[0] - rx * math.cos(math.pi * i / steps), centre[1] - ry * math.sin(math.pi * i / steps))
              for i in range(steps + 1)]
    lengths = [0.0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    goal = t * lengths[-1]
    i = next(i for i, length in enumerate(lengths) if length >= goal)
    return points[i]


def dotted_arc(card, centre, rx, ry, color, dots=11, radius=6.5):
    """The hop: a row of dots along the upper half of an ellipse with an arrowhead at its right
    end, drawn large and scaled down for smooth edges."""
    size = card.width
    big = size * SUPER
    mask = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(mask)
    r = radius * SUPER
    for i in range(dots):
        x, y = hop_arc(centre, rx, ry, 0.02 + 0.8 * i / (dots - 1))
        draw.ellipse((x * SUPER - r, y * SUPER - r, x * SUPER + r, y * SUPER + r), fill=255)
    tip, back = hop_arc(centre, rx, ry, 1.0), hop_arc(centre, rx, ry, 0.94)
    dx, dy = tip[0] - back[0], tip[1] - back[1]
    n = math.hypot(dx, dy)
    dx, dy = dx / n, dy / n
    head, half = 28, 16
    base = (tip[0] - dx * head, tip[1] - dy * head)
    corners = [tip, (base[0] - dy * half, base[1] + dx * half), (base[0] + dy * half, base[1] - dx * half)]
    draw.polygon([(x * SUPER, y * SUPER) for x, y in corners], fill=255)
    card.alpha_composite(flat(color, mask.resize((size, size), Image.LANCZOS)))


def menu_halma(card):
    paste_center(card, halma_piece("yellow"), (224, 96), 64)
    paste_center(card, halma_piece("purple"), (160, 224), 64)
    paste_center(card, halma_piece("blue"), (96, 160), 72)
    # The red circle hops over the blue square: the dotted arc from where it stood to where it
    # lands (its ghost), the circle itself on the way down.
    paste_center(card, halma_goal("red"), (160, 160), 66)
    hop = ((96, 146), 64, 106)
    dotted_arc(card, *hop, INK)
    paste_center(card, halma_piece("red"), hop_arc(*hop, 0.66), 80)


def save_small(picture, path, colors=64):
    """A palette PNG with alpha: the Halma pictures must fit a few kilobytes each."""
    small = picture.quantize(colors=colors, method=Image.Quantize.FASTOCTREE)
    # The quantiser gives the clear background the faintest shadow's strength (1 or 2 of 255):
    # what is nearly clear becomes clear again.
    palette = small.getpalette("RGBA")
    for i in range(0, len(palette), 4):
        if palette[i + 3] < 4:
            palette[i:i + 4] = [0, 0, 0, 0]
    small.putpalette(palette, "RGBA")
    small.save(path, optimize=True)


def save_one_colour(picture, path):
    """A picture of one colour at many strengths, as a palette PNG that loses nothing: one entry
    for each strength it uses."""
    alpha = picture.getchannel("A")
    levels = sorted(set(alpha.tobytes()))
    index = {level: i for i, level in enumerate(levels)}
    palette = Image.frombytes("P", alpha.size, alpha.point([index.get(v, 0) for v in range(256)]).tobytes())
    color = [band.getextrema()[1] for band in picture.split()[:3]]
    palette.putpalette(color * len(levels))
    palette.save(path, optimize=True, transparency=bytes(levels))


def halma_pictures():
    for army in HALMA:
        save_small(halma_piece(army), IMAGES / f"halma_{army}.png")
        save_one_colour(halma_goal(army), IMAGES / f"halma_goal_{army}.png")
    menu = tile(menu_halma, [(246, 234, 212, 255), (222, 198, 160, 255)])
    save_small(menu, IMAGES / "menu_halma.png", colors=128)
    # White marks the board tints as it needs (a previewed path in orange).
    save_one_colour(dot((255, 255, 255, 235), 40), IMAGES / "mark_dot.png")
    save_one_colour(ring((255, 255, 255, 255), 18), IMAGES / "mark_ring.png")


def write_wave(name, samples, rate=22050):
    peak = max(1e-9, max(abs(s) for s in samples))
    with wave.open(str(SOUNDS / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(b"".join(struct.pack("<h", int(s / peak * 0.8 * 32767)) for s in samples))


def tone(freq, seconds, decay, rate=22050, harmonics=(1.0, 0.3, 0.1)):
    return [
        sum(a * math.sin(2 * math.pi * freq * (k + 1) * i / rate) for k, a in enumerate(harmonics))
        * math.exp(-decay * i / rate)
        for i in range(int(seconds * rate))
    ]


def sounds():
    rng = random.Random(7)
    knock = tone(420, 0.12, 38, harmonics=(1.0, 0.5, 0.2))
    noise = [rng.uniform(-1, 1) * math.exp(-120 * i / 22050) * 0.6 for i in range(len(knock))]
    write_wave("move.wav", [a + b for a, b in zip(knock, noise)])
    pop = tone(660, 0.09, 30) + tone(990, 0.16, 22)
    write_wave("capture.wav", pop)
    notes = [523.25, 659.25, 783.99, 1046.5]
    win = []
    for i, f in enumerate(notes):
        win += tone(f, 0.13 if i < 3 else 0.55, 9 if i < 3 else 5, harmonics=(1.0, 0.25, 0.08))
    write_wave("win.wav", win)
    write_wave("pass.wav", tone(392, 0.12, 20) + tone(330, 0.2, 16))


def main():
    IMAGES.mkdir(parents=True, exist_ok=True)
    SOUNDS.mkdir(parents=True, exist_ok=True)
    for name in CHESS:
        chess_piece(name, True).save(IMAGES / f"white_{name}.png")
        chess_piece(name, False).save(IMAGES / f"black_{name}.png")
    dot((40, 110, 60, 150), 30).save(IMAGES / "target_dot.png")
    ring((40, 110, 60, 170), 16).save(IMAGES / "target_ring.png")
    ring((255, 204, 0, 255), 14).save(IMAGES / "selected_ring.png")
    lichess = [(240, 217, 181, 255), (181, 136, 99, 255)]
    tile(menu_knight_hunt, lichess).save(IMAGES / "menu_knight_hunt.png")
    tile(menu_circles, [(226, 236, 214, 255), (150, 180, 120, 255)]).save(IMAGES / "menu_circles.png")
    tile(menu_bunnies, [(214, 236, 206, 255), (132, 190, 110, 255)]).save(IMAGES / "menu_bunnies.png")
    token("\U0001F430", (255, 255, 255, 255), (120, 170, 90, 255)).save(IMAGES / "piece_bunny.png")
    token("\U0001F434", (120, 78, 50, 255), (60, 36, 20, 255)).save(IMAGES / "piece_horse.png")
    clockwise_ring().save(IMAGES / "clockwise_ring.png")
    for name, char in {"bunny": "\U0001F430", "horse": "\U0001F434", "carrot": "\U0001F955",
                       "trophy": "\U0001F3C6", "robot": "\U0001F916", "people": "\U0001F9D1",
                       "star": "\u2B50", "clock": "\u23F0", "handshake": "\U0001F91D"}.items():
        emoji(char, 128).save(IMAGES / f"{name}.png")
    halma_pictures()
    sounds()
    shrink_pictures()


def shrink_pictures():
    """Palette PNGs are about a third of the size and look the same at the sizes shown; the
    browser download is what gains (Debian's pngquant)."""
    if shutil.which("pngquant") is None:
        print("pngquant is missing: the pictures stay full-colour PNGs")
        return
    for picture in sorted(IMAGES.glob("*.png")):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--strip", "--speed", "1",
                        "--quality", "75-98", "--output", str(picture), str(picture)], check=False)


if __name__ == "__main__":
    if sys.argv[1:] == ["halma"]:
        # Only the Halma pictures: needs Pillow alone (no fonts, no pngquant).
        IMAGES.mkdir(parents=True, exist_ok=True)
        halma_pictures()
    else:
        main()
