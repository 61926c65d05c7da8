"""A PDF's colours rewritten into the device space its profile prints in, as the PDF's last step: for the gray
profile every colour a gray (a monochrome printer gets what the page shows, and no driver picks the grays); for
the press profile every RGB colour the CMYK of the output intent (aids/colour/FOGRA39L-aids.icc, by littleCMS), so
that a file that claims PDF/X holds CMYK and gray only. One pass for both, read and written by pikepdf (qpdf),
never by hand: the colour operators of every content stream (pages, forms, tiling patterns, Type 3 glyphs), the
images, the colour spaces resources name, transparency groups, soft masks' backdrops and shadings' colours.

Gray: a colour becomes its luminance (ITU-R 601-2, as Pillow's "L"), a CMYK one its share of black; a gray given
as RGB stays as it is. Press: a neutral RGB colour (r = g = b) becomes black only (K), as the palette's grays are
(render/colours.py), and a neutral image a gray one; any other colour goes through the profile, relative
colorimetric with black point compensation, from sRGB or from the ICC profile the PDF gives it. What cannot be
converted for the press (a spot colour with an RGB alternate, a gradient of a sampled or PostScript function, a
shading mesh coloured at its vertices, an inline image, an image pikepdf cannot decode) is refused in one line
(Unconvertible). A PDF with nothing to change is returned as it was."""
from __future__ import annotations

import functools
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pikepdf
from PIL import Image, ImageChops, ImageCms

from .colours import PROFILE

RGB, CMYK, GRAY, OTHER = "rgb", "cmyk", "gray", "other"  # families of colour spaces
COMPONENTS = {RGB: 3, CMYK: 4, GRAY: 1}
DEVICE = {"/DeviceRGB": RGB, "/DeviceCMYK": CMYK, "/DeviceGray": GRAY, "/CalRGB": RGB, "/CalGray": GRAY}
DEVICE_OPERATORS = {"rg": ("fill", RGB), "RG": ("stroke", RGB), "k": ("fill", CMYK), "K": ("stroke", CMYK),
                    "g": ("fill", GRAY), "G": ("stroke", GRAY)}
SET_SPACE = {"cs": "fill", "CS": "stroke"}
SET_COLOUR = {"sc": "fill", "scn": "fill", "SC": "stroke", "SCN": "stroke"}
COLOUR = {*DEVICE_OPERATORS, *SET_SPACE, *SET_COLOUR, "q", "Q"}  # the operators the pass looks at


class Unconvertible(ValueError):
    """Something of a PDF the pass cannot convert, said in one line."""


@dataclass(frozen=True)
class Space:
    """A colour space as the pass sees it: its family, the ICC profile it carries (None: none, or sRGB taken for
    DeviceRGB), `kind` plain, indexed (its values are indices) or pattern (an uncoloured pattern's colour), and
    for a spot colour (Separation, DeviceN) the family of its alternate."""
    family: str
    profile: bytes | None = None
    kind: str = "plain"
    alternate: str | None = None


class Gray:
    """The gray profile's target: DeviceGray."""
    name = "gray"
    space = pikepdf.Name.DeviceGray
    families = frozenset({RGB, CMYK})
    operators = {"fill": "g", "stroke": "G"}
    refuses = False  # a monochrome printer prints what it can of the rest; nothing claims a standard
    kept = ("DeviceGray",)  # the device spaces it leaves as they are

    def keeps(self, values: tuple[float, ...], family: str) -> bool:
        return family == RGB and values[0] == values[1] == values[2]  # a gray already

    def colour(self, values: tuple[float, ...], family: str, profile: bytes | None) -> tuple[float, ...]:
        if family == RGB:
            return (luminance(*values),)
        c, m, y, k = values
        return (round(1 - min(1.0, 0.3 * c + 0.59 * m + 0.11 * y + k), 4),)

    def image(self, image: Image.Image, profile: bytes | None) -> Image.Image:
        return image.convert("L")


class Press:
    """The press profile's target: DeviceCMYK, as the shipped output intent prints it."""
    name = "press"
    space = pikepdf.Name.DeviceCMYK
    families = frozenset({RGB})
    operators = {"fill": "k", "stroke": "K"}
    refuses = True  # a file that claims PDF/X holds no RGB: what cannot be converted stops the build
    kept = ("DeviceCMYK", "DeviceGray")

    def keeps(self, values: tuple[float, ...], family: str) -> bool:
        return False

    def colour(self, values: tuple[float, ...], family: str, profile: bytes | None) -> tuple[float, ...]:
        r, g, b = values
        if r == g == b:  # black only, as the palette's grays: never a four-colour gray under text
            return (0.0, 0.0, 0.0, round(1 - float(r), 4))
        pixel = Image.new("RGB", (1, 1), tuple(round(255 * float(v)) for v in values))
        return tuple(round(v / 255, 4) for v in transform(profile).apply(pixel).tobytes())

    def image(self, image: Image.Image, profile: bytes | None) -> Image.Image:
        red, green, blue = image.convert("RGB").split()
        if ImageChops.difference(red, green).getbbox() is None and ImageChops.difference(green, blue).getbbox() is None:
            return red  # a gray image prints on black alone
        return transform(profile).apply(image.convert("RGB"))


GRAY_TARGET, PRESS_TARGET = Gray(), Press()
Target = Gray | Press


@functools.lru_cache(maxsize=8)
def transform(profile: bytes | None) -> ImageCms.ImageCmsTransform:
    """RGB (sRGB, or the ICC profile `profile`) to the output intent's CMYK."""
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile)) if profile else ImageCms.createProfile("sRGB")
    return ImageCms.buildTransform(source, ImageCms.ImageCmsProfile(str(PROFILE)), "RGB", "CMYK",
                                   renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def luminance(r: float, g: float, b: float) -> float:
    return round(0.299 * float(r) + 0.587 * float(g) + 0.114 * float(b), 4)


def grayed(data: bytes) -> bytes:
    """`data` (a PDF) with every colour a gray."""
    return recoloured(data, GRAY_TARGET)


def recoloured(data: bytes, target: Target) -> bytes:
    """`data` (a PDF) with every colour it paints in `target`'s space; raises Unconvertible (press) for what
    cannot be."""
    with pikepdf.open(io.BytesIO(data)) as pdf:
        changed = False
        # each object's keys read once: a missing key costs pikepdf an exception, and a tagged booklet has thousands
        objects = [(obj, set(obj.keys())) for obj in pdf.objects
                   if isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream))]
        for number, page in enumerate(pdf.pages, 1):  # the content streams first: they read the spaces as named
            new = _stream(page.obj, page.obj.get("/Resources"), target, f"page {number}")
            if new is not None:
                page.obj.Contents = pdf.make_stream(new)
                changed = True
        for owner, resources in _other_streams(objects):
            new = _stream(owner, resources, target, "a form or pattern")
            if new is not None:
                owner.write(new)
                changed = True
        for obj, keys in objects:  # then the objects that name a space: images, resources, groups, shadings
            changed |= _visit(obj, keys, target)
        if not changed:
            return data
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, compress_streams=True,
                 object_stream_mode=pikepdf.ObjectStreamMode.generate)
        return out.getvalue()


def _other_streams(objects: list[tuple[Any, set[str]]]) -> list[tuple[Any, Any]]:
    """(stream, its resources) of every form XObject, tiling pattern and Type 3 glyph of the PDF."""
    found = []
    for obj, keys in objects:
        if "/Subtype" in keys and obj.Subtype == "/Form" or "/PatternType" in keys and obj.PatternType == 1:
            found.append((obj, obj.get("/Resources")))
        elif "/Subtype" in keys and obj.Subtype == "/Type3" and "/CharProcs" in keys:
            found += [(glyph, obj.get("/Resources")) for glyph in obj.CharProcs.values()]
    return found


# --- content streams ---------------------------------------------------------------------------

def _may_paint(data: bytes, target: Target) -> bool:
    """Whether a content stream may set a colour `target` converts: an operator rg, RG (and k, K for gray), an
    inline image, or a colour space other than those it keeps. Only a look for the operators (a string that
    holds one is a false alarm, never a miss), so that a page of text in CMYK is not parsed for nothing: the
    parse is most of the pass's time."""
    return _operators(target.name).search(data) is not None


@functools.cache
def _operators(name: str) -> re.Pattern[bytes]:
    target = GRAY_TARGET if name == "gray" else PRESS_TARGET
    device = "rg|RG|k|K|BI" if CMYK in target.families else "rg|RG|BI"
    kept = "|".join([*target.kept, "Pattern"])
    return re.compile(rb"(?<![^\s\])>}])(?:" + device.encode() + rb")(?![^\s\[/<(%])|/(?!(?:" + kept.encode()
                      + rb")(?![^\s/\[\]<>(){}%]))[^\s/\[\]<>(){}%]+\s*(?:cs|CS)(?![^\s\[/<(%])")


def contents(owner: Any) -> list[Any]:
    """The streams of `owner`'s content: a page's (one, or an array of them), a form's or a pattern's own."""
    found = owner.get("/Contents") if isinstance(owner, pikepdf.Dictionary) else owner
    return list(found) if isinstance(found, pikepdf.Array) else [found] if found is not None else []


def _stream(owner: Any, resources: Any, target: Target, where: str) -> bytes | None:
    """The content stream of `owner` with its colours in `target`'s space, or None when it paints none to change.
    A space a resource names keeps its name (its resource is converted with the objects)."""
    if not any(_may_paint(part.read_bytes(), target) for part in contents(owner)):
        return None
    named = {str(name): describe(space) for name, space in ((resources or {}).get("/ColorSpace") or {}).items()}
    stack = [{"fill": Space(GRAY), "stroke": Space(GRAY)}]  # the current spaces, saved by q and restored by Q
    out: list[Any] = []
    changed = False
    for instruction in pikepdf.parse_content_stream(owner):
        if isinstance(instruction, pikepdf.ContentStreamInlineImage):
            _inline(instruction, named, target, where)
        elif (operator := str(instruction.operator)) in COLOUR:
            new = _instruction(list(instruction.operands), operator, stack, named, target)
            if new is not None:
                instruction = pikepdf.ContentStreamInstruction(new[0], pikepdf.Operator(new[1]))
                changed = True
        out.append(instruction)
    return pikepdf.unparse_content_stream(out) if changed else None


Instruction = tuple[list[Any], str]


def _instruction(operands: list[Any], operator: str, stack: list[dict[str, Space]], named: dict[str, Space],
                 target: Target) -> Instruction | None:
    """The instruction in `target`'s space for one that sets a colour or a colour space, None for any other (and
    for one that needs no change); `stack` follows the current fill and stroke spaces."""
    if operator == "q":
        stack.append(dict(stack[-1]))
    elif operator == "Q" and len(stack) > 1:
        stack.pop()
    elif operator in DEVICE_OPERATORS:
        return _device(operands, operator, stack[-1], target)
    elif operator in SET_SPACE and operands:
        return _set_space(operands, operator, stack[-1], named, target)
    elif operator in SET_COLOUR:
        return _set_colour(operands, operator, stack[-1], target)
    return None


def _device(operands: list[Any], operator: str, spaces: dict[str, Space], target: Target) -> Instruction | None:
    """rg, RG, k, K, g or G: a colour and its device space at once."""
    side, family = DEVICE_OPERATORS[operator]
    spaces[side] = Space(family)
    values = _values(operands)
    if family in target.families and len(values) == COMPONENTS[family] and not target.keeps(values, family):
        return _numbers(target.colour(values, family, None)), target.operators[side]
    return None


def _set_space(operands: list[Any], operator: str, spaces: dict[str, Space], named: dict[str, Space],
               target: Target) -> Instruction | None:
    """cs or CS: a device space converted is named anew; a resource's keeps its name (its resource is converted)."""
    name = str(operands[0])
    space = spaces[SET_SPACE[operator]] = named.get(name) or Space(DEVICE.get(name, OTHER))
    if name not in named and space.family in target.families:
        return [target.space], operator
    return None


def _set_colour(operands: list[Any], operator: str, spaces: dict[str, Space], target: Target) -> Instruction | None:
    """sc, scn, SC or SCN in the current space: its values converted (but an index; an uncoloured pattern's name
    kept after them)."""
    space = spaces[SET_COLOUR[operator]]
    values = _values(operands)
    if space.family not in target.families or space.kind == "indexed" or len(values) != COMPONENTS[space.family]:
        return None
    rest = [o for o in operands if isinstance(o, pikepdf.Name)]
    return [*_numbers(target.colour(values, space.family, space.profile)), *rest], operator


def _inline(instruction: Any, named: dict[str, Space], target: Target, where: str) -> None:
    """An inline image in a space to convert is refused: pikepdf cannot write one back (and no producer of aids'
    PDFs writes any)."""
    image = instruction.iimage
    space = named.get(str(image.obj.get("/CS", image.obj.get("/ColorSpace", ""))))
    family = space.family if space else DEVICE.get(str(image.colorspace or ""), OTHER)
    if target.refuses and family in target.families:
        raise Unconvertible(f"an inline image in {family.upper()} on {where} cannot be converted to "
                            f"{str(target.space)[1:]}")


def _values(operands: list[Any]) -> tuple[float, ...]:
    return tuple(float(v) for v in operands if isinstance(v, (int, float, Decimal)))


def _numbers(values: tuple[float, ...]) -> list[Any]:
    return [pikepdf.Object.parse(f"{v:g}".encode()) for v in values]


# --- objects that name a colour space ----------------------------------------------------------

def describe(space: Any) -> Space:
    """A colour space object (a name or an array) as the pass sees it."""
    if isinstance(space, pikepdf.Name) or not isinstance(space, pikepdf.Array) or not len(space):
        return Space(DEVICE.get(str(space), OTHER))
    head = str(space[0])
    if head == "/ICCBased":
        family = {1: GRAY, 3: RGB, 4: CMYK}.get(int(space[1].get("/N", 0)), OTHER)
        return Space(family, space[1].read_bytes() if family == RGB else None)
    if head in ("/Indexed", "/Pattern") and len(space) > 1:
        base = describe(space[1])
        return Space(base.family, base.profile, head[1:].lower())
    if head in ("/Separation", "/DeviceN") and len(space) > 2:
        return Space(OTHER, alternate=describe(space[2]).family)
    return Space(DEVICE.get(head, OTHER))


NESTED = {"/Resources", "/Group", "/SMask", "/Shading", "/Pattern", "/ExtGState"}  # keys to direct objects that
NAMES = {"/Shading", "/Pattern", "/ExtGState"}                                     # may name a space; of these, a
# resource dictionary's hold a name for each


def _visit(obj: Any, keys: set[str], target: Target) -> bool:
    """Every colour space `obj` and the direct objects inside it name, in `target`'s space; True if one changed."""
    changed = _object(obj, keys, target)
    for key in keys & NESTED:
        value = obj[key]
        if not isinstance(value, pikepdf.Dictionary) or value.is_indirect:
            continue  # an indirect one is visited as one of the PDF's objects
        inside = set(value.keys())
        if key in NAMES and not inside & {"/ShadingType", "/PatternType"}:
            for item in value.values():
                if isinstance(item, pikepdf.Dictionary) and not item.is_indirect:
                    changed |= _visit(item, set(item.keys()), target)
        else:
            changed |= _visit(value, inside, target)
    return changed


def _object(obj: Any, keys: set[str], target: Target) -> bool:
    """One dictionary or stream: an image, a shading, a transparency group, a soft mask, and the spaces its
    resources name."""
    if "/Subtype" in keys and obj.Subtype == "/Image" and not ("/ImageMask" in keys and obj.ImageMask):
        return _image(obj, target)
    changed = _shading(obj, target) if "/ShadingType" in keys else False
    changed |= _blending(obj, keys, target)
    resources = obj.Resources if "/Resources" in keys else None
    if isinstance(resources, pikepdf.Dictionary) and "/ColorSpace" in resources:
        changed |= _named(resources.ColorSpace, target)
    return changed


def _blending(obj: Any, keys: set[str], target: Target) -> bool:
    """A transparency group's space, a soft mask's backdrop colour (in its group's space)."""
    if "/CS" in keys and "/S" in keys and obj.S == "/Transparency":
        new = converted_space(obj.CS, target)
        if new is not None:
            obj.CS = new
        return new is not None
    if "/BC" in keys and len(obj.BC) == 3 and RGB in target.families:
        obj.BC = pikepdf.Array(_numbers(target.colour(_values(list(obj.BC)), RGB, None)))
        return True
    return False


def _named(named: Any, target: Target) -> bool:
    changed = False
    for name in list(named.keys()):
        if name == "/DefaultRGB" and RGB in target.families:  # it stands for DeviceRGB, which no longer shows
            del named[name]
            changed = True
            continue
        new = converted_space(named[name], target)
        if new is not None:
            named[name] = new
            changed = True
    return changed


def converted_space(space: Any, target: Target) -> Any:
    """The space `space` becomes in `target` (a new object), or None when it stays."""
    found = describe(space)
    if found.alternate in target.families and target.refuses:
        raise Unconvertible(f"a spot colour ({space[1]}) whose alternate is {found.alternate.upper()} cannot be "
                            f"converted to {str(target.space)[1:]}")
    if found.family not in target.families:
        return None
    if found.kind == "pattern":
        return pikepdf.Array([pikepdf.Name.Pattern, target.space])
    if found.kind == "indexed":
        lookup = space[3]
        table = lookup.read_bytes() if isinstance(lookup, pikepdf.Stream) else bytes(lookup)
        n = COMPONENTS[found.family]
        entries = [tuple(b / 255 for b in table[i:i + n]) for i in range(0, len(table) - n + 1, n)]
        converted = bytes(round(255 * v) for entry in entries for v in target.colour(entry, found.family,
                                                                                      found.profile))
        return pikepdf.Array([pikepdf.Name.Indexed, target.space, space[2], pikepdf.String(converted)])
    return target.space


def _image(stream: Any, target: Target) -> bool:
    """An image in a space to convert, its pixels converted (an indexed one: its palette), stored without loss."""
    space = describe(stream.get("/ColorSpace"))
    if space.family not in target.families:
        return False
    if space.kind == "indexed":
        stream.ColorSpace = converted_space(stream.ColorSpace, target)
        return True
    if isinstance(stream.get("/Mask"), pikepdf.Array) and target.refuses:
        raise Unconvertible(f"an {space.family.upper()} image masked by colour key cannot be converted to "
                            f"{str(target.space)[1:]}")
    try:
        image = pikepdf.PdfImage(stream).as_pil_image()
    except Exception as exc:  # pikepdf raises what the image's filters make it raise
        if not target.refuses:
            return False
        raise Unconvertible(f"an {space.family.upper()} image of {stream.get('/Width')} × {stream.get('/Height')} px "
                            f"cannot be decoded to convert it to {str(target.space)[1:]} ({exc})") from None
    new = target.image(image, space.profile)
    stream.write(new.tobytes())  # unfiltered: saving compresses it (Flate), as every other stream
    stream.ColorSpace = pikepdf.Name.DeviceGray if new.mode == "L" else pikepdf.Name.DeviceCMYK
    stream.BitsPerComponent = 8
    for key in ("/Decode", "/DecodeParms", "/Filter"):
        if key in stream:
            del stream[key]
    return True


def _shading(shading: Any, target: Target) -> bool:
    """A shading (a gradient) in a space to convert: its function's colours and its background converted."""
    space = describe(shading.get("/ColorSpace"))
    if space.family not in target.families or space.kind != "plain":
        return False
    if "/Function" not in shading or isinstance(shading.Function, pikepdf.Array):
        if not target.refuses:
            return False
        raise Unconvertible(f"a shading in {space.family.upper()} coloured at its vertices or by one function a "
                            f"component cannot be converted to {str(target.space)[1:]}")
    function = _function(shading.Function, space, target)
    if function is None:
        return False
    shading.Function = function
    if "/Background" in shading:
        shading.Background = pikepdf.Array(_numbers(target.colour(_values(list(shading.Background)), space.family,
                                                                  space.profile)))
    shading.ColorSpace = target.space
    return True


def _function(function: Any, space: Space, target: Target) -> Any:
    """A new function giving `target`'s colours for one giving `space`'s: exponential (type 2) and stitching
    (type 3) ones, as WeasyPrint and ReportLab write gradients; None (gray) or Unconvertible for another."""
    kind = int(function.get("/FunctionType", -1))
    n = COMPONENTS[space.family]
    if kind == 2:
        ends = [_values(list(function.get(key, pikepdf.Array([default] * n))))
                for key, default in (("/C0", 0), ("/C1", 1))]
        c0, c1 = (pikepdf.Array(_numbers(target.colour(end, space.family, space.profile))) for end in ends)
        return pikepdf.Dictionary(FunctionType=2, Domain=function.Domain, N=function.N, C0=c0, C1=c1)
    if kind == 3:
        parts = [_function(part, space, target) for part in function.Functions]
        if any(part is None for part in parts):
            return None
        return pikepdf.Dictionary(FunctionType=3, Domain=function.Domain, Bounds=function.Bounds,
                                  Encode=function.Encode, Functions=pikepdf.Array(parts))
    if target.refuses:
        raise Unconvertible(f"a gradient in {space.family.upper()} of a function of type {kind} (sampled or "
                            f"PostScript) cannot be converted to {str(target.space)[1:]}")
    return None
