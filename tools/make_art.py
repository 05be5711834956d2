#!/usr/bin/env python3
"""Makes Tabla's pictures: assets/images/*.png (its sounds are made by the app as it starts,
src/app/platform/synth.rs).

Run it again after changing it; its output is committed, so building the game never needs it.
Needs Pillow and Debian's fonts-dejavu-core and fonts-noto-color-emoji (see assets/LICENSES.md).
`make_art.py chess` makes only the chess pieces (Pillow, DejaVu Sans); `make_art.py halma` only
the Halma pictures, with Pillow alone; `make_art.py nard` only the Crazy Nard pictures
(Pillow, DejaVu Sans Bold, and pngquant if it is there); `make_art.py animals` only the children's
pictures; `make_art.py room` only the pictures of a room's code; `make_art.py icons` only the
icons a home screen shows for the browser build (web/icons/, Pillow and DejaVu Sans).
"""
import math
import shutil
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "assets" / "images"
DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
EMOJI = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
SIZE = 192

INK = (34, 30, 28, 255)
PAPER = (252, 250, 244, 255)

# Outline glyph and filled glyph of each chess piece in DejaVu Sans (the pieces use the filled one).
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
    """Both colours from the filled glyph, so they share one outline style: white is a light body
    in a dark outline, black a dark body in a light one. (DejaVu's outline glyphs are no help: its
    white bishop has a black mitre, its white pawn a ring on its head.)"""
    filled = CHESS[name][1]
    if white:
        body = glyph_layer(filled, PAPER, stroke=5, stroke_fill=INK)
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


# The children's pictures: an animal each, on a disc of its own colour (fox, frog, bear, chick,
# owl, penguin, pig, lion), in the order of `progress::child::ANIMALS`.
ANIMALS = [("\U0001F98A", (255, 196, 140, 255), (214, 110, 40, 255)),
           ("\U0001F438", (190, 232, 160, 255), (70, 150, 60, 255)),
           ("\U0001F43B", (222, 196, 170, 255), (130, 90, 60, 255)),
           ("\U0001F425", (255, 240, 150, 255), (220, 170, 20, 255)),
           ("\U0001F989", (214, 196, 240, 255), (120, 80, 180, 255)),
           ("\U0001F427", (176, 214, 250, 255), (50, 110, 200, 255)),
           ("\U0001F437", (255, 200, 220, 255), (220, 90, 140, 255)),
           ("\U0001F981", (250, 220, 130, 255), (200, 60, 50, 255))]


def animals():
    """Each child's picture, 72 pixels and few colours (pngquant at 50-80): a card shows it
    larger, a little soft, and the eight weigh 19 kB of the download instead of 58."""
    made = []
    for n, (char, disc, rim) in enumerate(ANIMALS):
        picture = token(char, disc, rim).resize((72, 72), Image.LANCZOS)
        path = IMAGES / f"animal_{n}.png"
        picture.save(path)
        made.append(path)
    return made


# The pictures of a room's code, in the order of `net::code::ANIMALS` (bear, bee, bird, butterfly,
# camel, cat, cow, crab, deer, dog, dolphin, duck, elephant, fish, fox, frog, giraffe, goat,
# hedgehog, horse, koala, lion, monkey, mouse, owl, panda, penguin, pig, rabbit, snail, turtle,
# whale); the app draws each on a disc of the code's colour.
ROOM_ANIMALS = ["\U0001F43B", "\U0001F41D", "\U0001F426", "\U0001F98B", "\U0001F42B", "\U0001F431",
                "\U0001F42E", "\U0001F980", "\U0001F98C", "\U0001F436", "\U0001F42C", "\U0001F986",
                "\U0001F418", "\U0001F41F", "\U0001F98A", "\U0001F438", "\U0001F992", "\U0001F410",
                "\U0001F994", "\U0001F434", "\U0001F428", "\U0001F981", "\U0001F435", "\U0001F42D",
                "\U0001F989", "\U0001F43C", "\U0001F427", "\U0001F437", "\U0001F430", "\U0001F40C",
                "\U0001F422", "\U0001F433"]


def room_animals():
    """The animals of a room's code on one sheet, 8 across and 4 down, 64 pixels each, few
    colours: one picture the app cuts (the browser fetches it only when a room is played)."""
    sheet = Image.new("RGBA", (8 * 64, 4 * 64), (0, 0, 0, 0))
    for n, char in enumerate(ROOM_ANIMALS):
        sheet.paste(emoji(char, 64), ((n % 8) * 64, (n // 8) * 64))
    path = IMAGES / "room_animals.png"
    sheet.save(path)
    return [path]


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


# Crazy Nard (backgammon): checkers, dice, the doubling cube, stack counts and the board's point.
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
IVORY = (244, 236, 214)
WALNUT = (52, 36, 30)  # the dark checkers
RIM_DARK = (58, 40, 30)
PIP = (40, 32, 28)
NARD_FILES = ([f"nard_{side}.png" for side in ("white", "black")]
              + [f"die_{n}.png" for n in range(1, 7)]
              + [f"cube_{n}.png" for n in (1, 2, 4, 8, 16, 32, 64)]
              + [f"count_{n}.png" for n in range(2, 16)]
              + ["nard_point.png", "menu_nard.png", "dice_cup.png", "nard_take.png", "nard_drop.png"])


def smooth(size, paint):
    """A mask that paint(draw, k) draws k = SUPER times larger (coordinates in picture pixels
    times k), scaled down by averaging for smooth edges. size is a side or (width, height)."""
    w, h = (size, size) if isinstance(size, int) else size
    big = Image.new("L", (w * SUPER, h * SUPER), 0)
    paint(ImageDraw.Draw(big), SUPER)
    return big.resize((w, h), Image.BOX)


def disc_mask(size, centre, radius):
    (x, y), r = centre, radius
    return smooth(size, lambda d, k: d.ellipse([v * k for v in (x - r, y - r, x + r, y + r)], fill=255))


def box_mask(size, box, radius):
    return smooth(size, lambda d, k: d.rounded_rectangle([v * k for v in box], radius=radius * k, fill=255))


def star_mask(size, centre, outer, inner, points=4, turn=-90):
    corners = []
    for i in range(2 * points):
        r = outer if i % 2 == 0 else inner
        a = math.radians(turn + 180 * i / points)
        corners.append((centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))
    return smooth(size, lambda d, k: d.polygon([(x * k, y * k) for x, y in corners], fill=255))


def text_mask(size, text, centre, fit):
    """Bold text as a mask, as large as fits a box of fit = (width, height), its ink centred on
    centre."""
    font_size = 200
    font = ImageFont.truetype(DEJAVU_BOLD, font_size * SUPER)
    big = Image.new("L", (font_size * SUPER * (len(text) + 1), font_size * SUPER * 2), 0)
    ImageDraw.Draw(big).text((0, 0), text, font=font, fill=255)
    ink = big.crop(big.getbbox())
    scale = min(fit[0] / ink.width, fit[1] / ink.height)
    w, h = max(1, round(ink.width * scale * SUPER)), max(1, round(ink.height * scale * SUPER))
    ink = ink.resize((w, h), Image.LANCZOS)
    mask = Image.new("L", (size * SUPER, size * SUPER), 0)
    mask.paste(ink, (round(centre[0] * SUPER - w / 2), round(centre[1] * SUPER - h / 2)))
    return mask.resize((size, size), Image.BOX)


def nard_checker(white, size=128):
    """Seen from above, filling the picture; white and black differ by their marks too (a ring,
    a star), so a colour-blind child tells them apart."""
    c, r = (61, 60), 56
    if white:
        body = flat(RIM_DARK, disc_mask(size, c, r))
        body.alpha_composite(flat(IVORY, disc_mask(size, c, r - 7)))
        mark = ImageChops.subtract(disc_mask(size, c, 35), disc_mask(size, c, 31))
        body.alpha_composite(flat(RIM_DARK, mark, 230))
    else:
        body = flat((22, 16, 14), disc_mask(size, c, r))
        body.alpha_composite(flat((226, 212, 186), disc_mask(size, c, r - 2.5)))
        body.alpha_composite(flat(WALNUT, disc_mask(size, c, r - 9)))
        body.alpha_composite(flat((236, 226, 204), star_mask(size, c, 27, 8)))
    return with_shadow(body, size, shift=(3, 5), blur=3.5)


def nard_block(face, side, edge, size=96, inset=2.5, rounding=17):
    """A die's or the cube's body, drawn for 96 pixels and scaled to size: a rounded square face
    over a darker strip of its side, an edge round both (inset thick). Returns the body, the
    face's centre and the scale."""
    s = size / 96

    def part(left, top, right, bottom, corner):
        return box_mask(size, [v * s for v in (left, top, right, bottom)], corner * s)
    body = flat(edge, part(5, 4, 83, 87, rounding))
    body.alpha_composite(flat(side, part(5 + inset, 4 + inset, 83 - inset, 87 - inset, rounding - inset)))
    body.alpha_composite(flat(face, part(5 + inset, 4 + inset, 83 - inset, 82 - inset, rounding - inset)))
    return body, (44 * s, 43 * s), s


# Where the pips of each number sit, in steps of the pip spacing from the face's centre.
PIPS = {1: [(0, 0)], 2: [(1, -1), (-1, 1)], 3: [(1, -1), (0, 0), (-1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}


def nard_die(number, size=96, shadow=True):
    body, (cx, cy), s = nard_block((252, 248, 238), (214, 202, 180), (132, 116, 96), size)
    spacing, radius = 19.5 * s, 7.5 * s
    pips = Image.new("L", (size, size), 0)
    for dx, dy in PIPS[number]:
        pips = ImageChops.lighter(pips, disc_mask(size, (cx + dx * spacing, cy + dy * spacing), radius))
    body.alpha_composite(flat(PIP, pips))
    return with_shadow(body, size, shift=(round(2 * s), round(3 * s)), blur=2.5 * s) if shadow else body


def nard_cube(number, size=96):
    """The doubling cube: warm gold, a dark border, its number large and bold."""
    body, (cx, cy), _ = nard_block((248, 184, 56), (206, 130, 32), (74, 44, 16), size, inset=4.5)
    text = str(number)
    fit = (34, 44) if len(text) == 1 else (56, 40)
    body.alpha_composite(flat((60, 32, 8), text_mask(size, text, (cx, cy), fit)))
    return with_shadow(body, size, shift=(2, 3), blur=2.5)


def nard_count(number, size=64):
    """The badge on a tall stack: how many checkers stand there, readable at 24 pixels."""
    c, r = (31, 30), 29
    body = flat((70, 12, 16), disc_mask(size, c, r))
    body.alpha_composite(flat((255, 255, 255), disc_mask(size, c, r - 1.5)))
    body.alpha_composite(flat((190, 26, 36), disc_mask(size, c, r - 6)))
    text = str(number)
    fit = (22, 31) if len(text) == 1 else (38, 27)
    body.alpha_composite(flat((255, 255, 255), text_mask(size, text, (c[0], c[1] + 0.5), fit)))
    return with_shadow(body, size, shift=(1, 2), blur=1.5)


def nard_point(width=64, height=320):
    """One point of the board: a plain white triangle the app tints."""
    corners = [(3, height), (width - 3, height), (width / 2, 0)]
    mask = smooth((width, height), lambda d, k: d.polygon([(x * k, y * k) for x, y in corners], fill=255))
    # Pillow fills the pixels an edge passes through, a sliver more on the right: the triangle
    # and its mirror image overlap in a symmetric one.
    return flat((255, 255, 255), ImageChops.darker(mask, mask.transpose(Image.Transpose.FLIP_LEFT_RIGHT)))


def capsule(draw, k, start, end, width):
    """A line with round ends, on a mask drawn k times larger."""
    r = width / 2 * k
    draw.line([(start[0] * k, start[1] * k), (end[0] * k, end[1] * k)], fill=255, width=round(width * k))
    for x, y in (start, end):
        draw.ellipse((x * k - r, y * k - r, x * k + r, y * k + r), fill=255)


def tumbling(picture, angle, width):
    picture = picture.resize((width, width), Image.LANCZOS)
    return picture.rotate(angle, Image.BICUBIC, expand=True)


def dice_cup(size=96):
    """The roll button: two dice tumbling towards the lower right, three speed lines behind."""
    big = size * 2
    layer = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    first, second = tumbling(nard_die(5, 192, False), 20, 92), tumbling(nard_die(3, 192, False), -16, 84)
    layer.alpha_composite(first, (44, 6))
    layer.alpha_composite(second, (big - second.width - 2, big - second.height - 6))
    lines = smooth(big, lambda d, k: [capsule(d, k, *ends, 9) for ends in (
        ((14, 58), (40, 70)), ((9, 96), (42, 106)), ((20, 136), (52, 142)))])
    layer.alpha_composite(flat((132, 112, 88), lines))
    return with_shadow(layer.resize((size, size), Image.LANCZOS), size, shift=(2, 3), blur=2.5)


def menu_nard(card):
    """Points of a backgammon board with stacked checkers, and a double on the dice."""
    size = card.width
    board = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    colours = [(186, 60, 44), (44, 104, 88)]
    for i in range(4):
        x0 = i * 64
        up = smooth(size, lambda d, k, x0=x0: d.polygon(
            [((x0 + 4) * k, 256 * k), ((x0 + 60) * k, 256 * k), ((x0 + 32) * k, 150 * k)], fill=255))
        down = smooth(size, lambda d, k, x0=x0: d.polygon(
            [((x0 + 4) * k, 0), ((x0 + 60) * k, 0), ((x0 + 32) * k, 106 * k)], fill=255))
        board.alpha_composite(flat(colours[i % 2], up))
        board.alpha_composite(flat(colours[(i + 1) % 2], down))
    card.alpha_composite(board)
    white, black = nard_checker(True), nard_checker(False)
    for x, y in ((32, 226), (32, 178)):
        paste_center(card, white, (x, y), 56)
    for x, y in ((224, 28), (224, 76), (160, 28)):
        paste_center(card, black, (x, y), 56)
    paste_center(card, white, (224, 226), 56)
    card.alpha_composite(tumbling(nard_die(6, 192), 12, 72), (86, 88))
    card.alpha_composite(tumbling(nard_die(6, 192), -10, 72), (146, 120))


def rounded_card(picture, size=256):
    """Whatever spilled past the card's rounded corners is cut off."""
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, size - 1, size - 1), radius=40, fill=255)
    picture.putalpha(ImageChops.multiply(picture.getchannel("A"), mask))
    return picture


def save_tiny(picture, path, colors):
    """Like save_small, with few colours: the quantiser would give much of the clear background
    a faint shadow's strength, so what was (nearly) clear is given a clear entry of its own."""
    clear = picture.getchannel("A").point(lambda a: 255 if a < 12 else 0)
    small = picture.quantize(colors=colors - 1, method=Image.Quantize.FASTOCTREE)
    palette = small.getpalette("RGBA")
    small.putpalette(palette + [0, 0, 0, 0], "RGBA")
    small.paste(len(palette) // 4, (0, 0) + small.size, clear)
    small.save(path, optimize=True)


def nard_answer(take, size=96):
    """The two answers to a double, as pictures a child reads without words: take (a green disc,
    a white tick) and drop (a soft red disc, a white flag)."""
    c, r = (46, 46), 42
    body = flat((30, 100, 50) if take else (150, 40, 36), disc_mask(size, c, r))
    body.alpha_composite(flat((70, 170, 90) if take else (214, 84, 70), disc_mask(size, c, r - 4)))
    if take:
        tick = [(25, 47), (40, 62), (68, 30)]
        mark = smooth(size, lambda d, k: d.line([(x * k, y * k) for x, y in tick], fill=255,
                                                  width=11 * k, joint="curve"))
        body.alpha_composite(flat((255, 255, 255), mark))
    else:
        pole = box_mask(size, (28, 18, 34, 78), 2)
        cloth = smooth(size, lambda d, k: d.polygon(
            [(x * k, y * k) for x, y in [(34, 20), (66, 24), (60, 34), (68, 46), (34, 44)]], fill=255))
        body.alpha_composite(flat((90, 60, 40), pole))
        body.alpha_composite(flat((255, 255, 255), cloth))
    return with_shadow(body, size, shift=(2, 3), blur=2.5)


def nard_pictures():
    """Returns the files it made."""
    # Few colours: these are flat drawings, and the browser bundle is tight.
    for white in (True, False):
        save_tiny(nard_checker(white), IMAGES / f"nard_{'white' if white else 'black'}.png", 20)
    for n in range(1, 7):
        save_tiny(nard_die(n), IMAGES / f"die_{n}.png", 16)
    for n in (1, 2, 4, 8, 16, 32, 64):
        save_tiny(nard_cube(n), IMAGES / f"cube_{n}.png", 16)
    for n in range(2, 16):
        save_tiny(nard_count(n), IMAGES / f"count_{n}.png", 16)
    save_one_colour(nard_point(), IMAGES / "nard_point.png")
    menu = rounded_card(tile(menu_nard, [(240, 218, 176, 255), (232, 206, 160, 255)]))
    save_tiny(menu, IMAGES / "menu_nard.png", 24)
    save_tiny(dice_cup(), IMAGES / "dice_cup.png", 24)
    for take in (True, False):
        save_tiny(nard_answer(take), IMAGES / f"nard_{'take' if take else 'drop'}.png", 24)
    return [IMAGES / name for name in NARD_FILES]




def main():
    IMAGES.mkdir(parents=True, exist_ok=True)
    for name in CHESS:
        chess_piece(name, True).save(IMAGES / f"white_{name}.png")
        chess_piece(name, False).save(IMAGES / f"black_{name}.png")
    dot((40, 110, 60, 150), 30).save(IMAGES / "target_dot.png")
    ring((40, 110, 60, 170), 16).save(IMAGES / "target_ring.png")
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
    nard_pictures()
    shrink_pictures(animals(), quality="50-80")
    shrink_pictures(room_animals(), quality="50-80")
    shrink_pictures()
    shrink_pictures(app_icons())


def app_icon(size, maskable):
    """Tabla on a home screen: the white knight on two squares of its board. A maskable icon
    fills its square (the launcher cuts its own shape) and keeps the knight inside the middle
    circle every shape keeps (80% of the side across); the other has rounded corners of its own."""
    light, dark = (240, 217, 181, 255), (181, 135, 99, 255)
    board = Image.new("RGBA", (size, size), light)
    draw = ImageDraw.Draw(board)
    draw.rectangle([size // 2, 0, size, size // 2], fill=dark)
    draw.rectangle([0, size // 2, size // 2, size], fill=dark)
    if maskable:
        icon = board
    else:
        icon = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        corners = Image.new("L", (size, size), 0)
        ImageDraw.Draw(corners).rounded_rectangle([0, 0, size - 1, size - 1], radius=size * 0.2, fill=255)
        icon.paste(board, (0, 0), corners)
    side = int(size * (0.74 if maskable else 0.9))
    stroke = max(2, round(side * 5 / SIZE))
    knight = glyph_layer(CHESS["knight"][1], PAPER, size=side, stroke=stroke, stroke_fill=INK)
    knight = with_shadow(knight, size=side, shift=(side // 48, side // 27), blur=side // 38)
    icon.alpha_composite(knight, ((size - side) // 2, (size - side) // 2))
    return icon


def app_icons():
    """The icons of the browser build's manifest: 192 and 512 pixels, and a maskable 512."""
    icons = ROOT / "web" / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    made = []
    for name, size, maskable in [("icon-192", 192, False), ("icon-512", 512, False),
                                 ("icon-maskable-512", 512, True)]:
        app_icon(size, maskable).save(icons / f"{name}.png")
        made.append(icons / f"{name}.png")
    return made


def shrink_pictures(pictures=None, quality="55-85"):
    """Palette PNGs are about a third of the size and look the same at the sizes shown; the
    browser download is what gains (Debian's pngquant, at 55-85: a quarter lighter again than at
    75-98, with no difference to see at the sizes shown). All the pictures, or those given."""
    if shutil.which("pngquant") is None:
        print("pngquant is missing: the pictures stay full-colour PNGs")
        return
    for picture in sorted(IMAGES.glob("*.png")) if pictures is None else pictures:
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--strip", "--speed", "1",
                        "--quality", quality, "--output", str(picture), str(picture)], check=False)


if __name__ == "__main__":
    if sys.argv[1:] == ["chess"]:
        # Only the chess pieces: Pillow and DejaVu Sans.
        for name in CHESS:
            chess_piece(name, True).save(IMAGES / f"white_{name}.png")
            chess_piece(name, False).save(IMAGES / f"black_{name}.png")
        shrink_pictures([IMAGES / f"{colour}_{name}.png" for name in CHESS for colour in ("white", "black")])
    elif sys.argv[1:] == ["halma"]:
        # Only the Halma pictures: needs Pillow alone (no fonts, no pngquant).
        IMAGES.mkdir(parents=True, exist_ok=True)
        halma_pictures()
    elif sys.argv[1:] == ["animals"]:
        # Only the children's pictures: Pillow, Noto Color Emoji, and pngquant if it is there.
        shrink_pictures(animals(), quality="50-80")
    elif sys.argv[1:] == ["room"]:
        # Only the pictures of a room's code: Pillow, Noto Color Emoji, and pngquant if it is there.
        shrink_pictures(room_animals(), quality="50-80")
    elif sys.argv[1:] == ["icons"]:
        # Only the home screen's icons: Pillow and DejaVu Sans, and pngquant if it is there.
        shrink_pictures(app_icons())
    elif sys.argv[1:] == ["nard"]:
        # Only the Crazy Nard pictures, each shrunk by pngquant if it is there.
        IMAGES.mkdir(parents=True, exist_ok=True)
        shrink_pictures(nard_pictures())
    else:
        main()
