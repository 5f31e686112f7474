"""Cut the sheets' fonts for the screen: WOFF2 files of just the characters the sheets print themselves.

The PDF embeds the TTF files beside this script (sheet-fonts.css). A browser showing a sheet's print view
loads these instead (sheet-fonts-web.css): Latin, Greek and Cyrillic letters, the punctuation, arrows and
symbols of the sheets (the suits, the check boxes, the moon, the star), about 18 KiB a font instead of
270 to 470 KiB. A name in any other character falls through to the phone's own fonts (unicode-range).

Run from the repository root with the app's environment and fontTools (pip install fonttools brotli):
    .venv/bin/python static/fonts/make_web_fonts.py
"""

from pathlib import Path

from fontTools import subset

HERE = Path(__file__).resolve().parent
FONTS = ("DejaVuSans", "DejaVuSans-Bold", "DejaVuSansMono", "DejaVuSansMono-Bold")
# Keep in step with unicode-range in static/sheet-fonts-web.css.
UNICODES = ("U+0000-017F,U+0218-021B,U+0391-03C9,U+0400-045F,U+0490-0491,U+2010-2027,U+2030-203A,U+20AC,"
            "U+2116,U+2190-2193,U+2212,U+2605,U+2610-2612,U+263E,U+2660-2667,U+2713-2717")

if __name__ == "__main__":
    (HERE / "web").mkdir(exist_ok=True)
    for name in FONTS:
        subset.main([str(HERE / f"{name}.ttf"), f"--unicodes={UNICODES}", "--flavor=woff2", "--no-hinting",
                     "--desubroutinize", f"--output-file={HERE / 'web' / f'{name}.woff2'}"])
