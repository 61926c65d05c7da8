"""PDFs for a print shop (the press profile): PDF/X-4 with the shipped FOGRA39 output intent, TrimBox and
BleedBox on every page, crop marks outside the bleed in a slug that grows the sheet, font subsets under
names of their own, reproducible bytes. WeasyPrint writes the PDF/X itself (its pdf/x-4 variant); a
ReportLab card gets the same identification here, and both the shipped profile as their output intent."""
from __future__ import annotations

import datetime as dt
import hashlib
import io
import uuid
from collections.abc import Iterable
from xml.sax.saxutils import escape

from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
    RectangleObject,
    StreamObject,
    TextStringObject,
)

from ..config import Print
from ..units import PT_PER_MM
from . import recolour
from .colours import CONDITION, PROFILE

VERSION = "PDF/X-4"
MARK_GAP = 2 * PT_PER_MM  # between the bleed and where a crop mark starts
MARK_LENGTH = 5 * PT_PER_MM
SLUG = MARK_GAP + MARK_LENGTH + 1 * PT_PER_MM  # beyond the bleed: room for the marks (and nothing else)
MARK_WIDTH = 0.25  # pt, in 100 % black (K)

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pt


def slug(settings: Print) -> float:
    """The width beyond the bleed the sheet grows by to hold the marks (none without marks)."""
    return SLUG if settings.marks == "crop" else 0.0


def crop_marks(trim: Box, bleed: float) -> list[tuple[float, float, float, float]]:
    """Lines (x0, y0, x1, y1) along the trim's edges, outside the bleed: from the bleed plus a gap, outward."""
    x0, y0, x1, y1 = trim
    near, far = bleed + MARK_GAP, bleed + MARK_GAP + MARK_LENGTH
    lines = []
    for x in (x0, x1):
        lines += [(x, y0 - near, x, y0 - far), (x, y1 + near, x, y1 + far)]
    for y in (y0, y1):
        lines += [(x0 - near, y, x0 - far, y), (x1 + near, y, x1 + far, y)]
    return lines


def marks_stream(lines: Iterable[tuple[float, float, float, float]], dash: str = "[]0") -> bytes:
    """The marks as content: stroked in black only (K), solid (or `dash`ed), in a saved graphics state."""
    ops = [f"q 0 0 0 1 K {MARK_WIDTH} w {dash} d"]
    ops += [f"{a:.3f} {b:.3f} m {c:.3f} {d:.3f} l S" for a, b, c, d in lines]
    return "\n".join([*ops, "Q"]).encode()


def finish(data: bytes, settings: Print, epoch: int) -> bytes:
    """A press PDF made whole: each page's TrimBox kept, BleedBox the trim plus the bleed, the sheet grown
    by the marks' slug (MediaBox, CropBox), the marks drawn there; the output intent and the PDF/X
    identification added (WeasyPrint leaves the intent out when the profile comes with its user stylesheet,
    ReportLab has none); subset names made distinct; the XMP
    document id derived from the content, so that the same sources give the same bytes."""
    data = recolour.recoloured(data, recolour.PRESS_TARGET)  # what is still RGB (an icon, a figure, page art)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.pdf_header = b"%PDF-1.6"  # PDF/X-4 is based on PDF 1.6
    bleed, room = settings.bleed * PT_PER_MM, settings.bleed * PT_PER_MM + slug(settings)
    for page in writer.pages:
        x0, y0, x1, y1 = (float(v) for v in page.trimbox)
        page.bleedbox = RectangleObject((x0 - bleed, y0 - bleed, x1 + bleed, y1 + bleed))
        page.mediabox = RectangleObject((x0 - room, y0 - room, x1 + room, y1 + room))
        page.cropbox = page.mediabox
        page.pop(NameObject("/ArtBox"), None)  # PDF/X: a TrimBox, and no ArtBox beside it
        page.pop(NameObject("/Annots"), None)  # PDF/X: no annotation inside the bleed (a link does nothing on paper)
        if settings.marks == "crop":
            stream = DecodedStreamObject()
            stream.set_data(marks_stream(crop_marks((x0, y0, x1, y1), bleed)))
            append_content(writer, page, stream)
    if "/OutputIntents" not in writer._root_object:
        add_output_intent(writer)
    _distinct_subsets(writer)
    identify(writer, str(writer.metadata.title or "") if writer.metadata else "", epoch)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def append_content(writer: PdfWriter, page, stream: StreamObject) -> None:
    contents = page.get(NameObject("/Contents"))
    reference = writer._add_object(stream)
    existing = contents.get_object() if contents is not None else None
    if isinstance(existing, ArrayObject):
        parts = list(existing)
    elif contents is not None:
        parts = [contents]
    else:
        parts = []
    # the page's own content wrapped in q/Q, so that no state it leaves changes the marks
    start, end = DecodedStreamObject(), DecodedStreamObject()
    start.set_data(b"q\n")
    end.set_data(b"\nQ\n")
    page[NameObject("/Contents")] = ArrayObject([writer._add_object(start), *parts, writer._add_object(end),
                                                 reference])


def add_output_intent(writer: PdfWriter) -> None:
    profile = StreamObject()
    profile._data = PROFILE.read_bytes()
    profile[NameObject("/N")] = NumberObject(4)
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"), NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(CONDITION),
        NameObject("/Info"): TextStringObject(PROFILE.name),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/DestOutputProfile"): writer._add_object(profile),
    })
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])


def _distinct_subsets(writer: PdfWriter) -> None:
    """Every font subset under a prefix of its own (ReportLab names each AAAAAA+): a tag derived from its
    name and glyphs, the same for the same subset, different for different ones."""
    renamed: dict[str, str] = {}
    for page in writer.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for font in fonts.values():
            font = font.get_object()
            for each in [font, *(d.get_object() for d in font.get("/DescendantFonts") or [])]:
                _rename(each, renamed)


def _rename(font, renamed: dict[str, str]) -> None:
    """A font (or a descendant font) named AAAAAA+Name renamed by its tag, which `renamed` keeps by name."""
    name = str(font.get("/BaseFont", ""))
    if len(name) > 8 and name[7] == "+" and name[1:7].isupper() and name not in renamed.values():
        descriptor = font.get("/FontDescriptor")
        glyphs = descriptor.get_object().get("/FontFile2") if descriptor else None
        key = name + (hashlib.sha1(glyphs.get_object().get_data()).hexdigest() if glyphs else "")
        if name not in renamed:
            digest = hashlib.sha1(key.encode()).digest()
            renamed[name] = "/" + "".join(chr(65 + b % 26) for b in digest[:6]) + name[7:]
        font[NameObject("/BaseFont")] = NameObject(renamed[name])
        if descriptor:
            descriptor.get_object()[NameObject("/FontName")] = NameObject(renamed[name])


def identify(writer: PdfWriter, title: str, epoch: int) -> None:
    """PDF/X identification in the document information and in XMP metadata, dated by the sources."""
    moment = dt.datetime.fromtimestamp(epoch, dt.UTC)
    pdf_date = moment.strftime("D:%Y%m%d%H%M%S+00'00'")
    writer.add_metadata({"/GTS_PDFXVersion": VERSION, "/Trapped": NameObject("/False"),
                         "/CreationDate": pdf_date, "/ModDate": pdf_date})
    iso = moment.strftime("%Y-%m-%dT%H:%M:%S+00:00")
    digest = hashlib.sha1(b"".join(contents.get_data() for p in writer.pages if (contents := p.get_contents())))
    document_id = uuid.UUID(bytes=digest.digest()[:16], version=5)
    file_id = ByteStringObject(document_id.bytes)  # the file identifier too: the same content, the same id
    writer._ID = ArrayObject([file_id, file_id])
    xmp = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
 xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
 xmlns:dc="http://purl.org/dc/elements/1.1/">
<pdfxid:GTS_PDFXVersion>{VERSION}</pdfxid:GTS_PDFXVersion>
<pdf:Trapped>False</pdf:Trapped><pdf:Producer>aids</pdf:Producer>
<xmp:CreateDate>{iso}</xmp:CreateDate><xmp:ModifyDate>{iso}</xmp:ModifyDate><xmp:MetadataDate>{iso}</xmp:MetadataDate>
<xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID><xmpMM:VersionID>1</xmpMM:VersionID>
<xmpMM:RenditionClass>default</xmpMM:RenditionClass>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>"""
    existing = writer._root_object.get("/Metadata")
    metadata = existing.get_object() if existing is not None else StreamObject()  # WeasyPrint's, replaced
    metadata._data = xmp.encode("utf-8")
    for key in ("/Filter", "/DecodeParms"):
        metadata.pop(NameObject(key), None)
    metadata[NameObject("/Type")] = NameObject("/Metadata")
    metadata[NameObject("/Subtype")] = NameObject("/XML")
    if existing is None:
        writer._root_object[NameObject("/Metadata")] = writer._add_object(metadata)
