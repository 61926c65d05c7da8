"""Lengths between the units aids meets: millimetres (sources, paper sizes), PDF points (ReportLab, pypdf; 72 to
the inch) and CSS pixels (WeasyPrint's layout; 96 to the inch). Each name says what it turns into what: a length
in millimetres times PT_PER_MM is one in points."""

MM_PER_INCH = 25.4
PT_PER_MM = 72 / MM_PER_INCH  # points in a millimetre
MM_PER_PT = MM_PER_INCH / 72  # millimetres in a point
MM_PER_PX = MM_PER_INCH / 96  # millimetres in a CSS pixel
