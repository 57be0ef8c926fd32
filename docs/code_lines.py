#!/usr/bin/env python3
"""code_lines.py -- the last step of `make html` (docs/html.mk): code lines that wrap well.

pandoc writes every line of a highlighted block as

    <span id="cb3-7"><a href="#cb3-7" aria-hidden="true" tabindex="-1"></a>        code...</span>

This rewrites each such line as

    <span id="cb3-7" style="--i:8">        code...</span>

* --i is the line's indentation in characters. On a screen wide enough for
  about 80 characters, docs/style.css lets a long line wrap inside the column
  instead of scrolling, and starts its continuation four characters deeper
  than the line itself (padding-left and a negative text-indent of --i + 4
  ch), so a wrapped statement still reads as one. The source keeps its
  lines: copying the code copies them unchanged.
* The empty link is dropped: style.css hides it anyway, and 3,700 of them
  were an eighth of the page.
* The spaces that align a macro's trailing backslashes, but one, go in a
  <span class="align"> that style.css shrinks where lines wrap.
* In a step's code (a <div class="step-code" data-new="9,45-54"> that
  docs/filters/steps.lua made), the lines new since the step before get
  class="new", which style.css marks in the margin.

Usage: python3 docs/code_lines.py PAGE   (rewrites PAGE in place; standard library only)
"""

import re
import sys

import step_code   # its numbers() reads data-new, which it wrote as ranges()

LINE = re.compile(r'<span id="(cb\d+-\d+)"><a href="#\1" aria-hidden="true" tabindex="-1"></a>'
                  r'((?:<span class="[a-z]+">)*)([ \t]*)')


def rewrite(html):
    """The page with every code line's indentation recorded and its empty link gone."""
    def line(match):
        indent = len(match.group(3).expandtabs(4))
        style = ' style="--i:%d"' % indent if indent else ""
        return '<span id="%s"%s>%s%s' % (match.group(1), style, match.group(2), match.group(3))
    return LINE.sub(line, html)


# The spaces that line a macro's backslashes up in a column: a run before the backslash that ends a line.
ALIGNED = re.compile(r' ( +)((?:</span>)?(?:<span class="[a-z]+">)?\\(?:</span>)?</span>\n)')


def fold_alignment(html):
    """The run of spaces before a line's final backslash, but one, in a <span class="align">, which style.css
    shrinks to nothing where long lines wrap: a padded macro line wrapped at 1280 px and left the backslash alone
    on a row of its own. The spaces stay in the text, so a copy keeps them."""
    return ALIGNED.sub(lambda m: ' <span class="align">%s</span>%s' % (m.group(1), m.group(2)), html)


STEP = re.compile(r'<div class="step-code"[^>]*data-new(?:="([\d,-]*)")?[^>]*>\s*<div class="sourceCode" id="(cb\d+)"')


def mark_new(html):
    """class="new" on the lines each step-code block names in data-new."""
    for match in list(STEP.finditer(html)):
        for n in step_code.numbers(match.group(1) or ""):
            html = html.replace('<span id="%s-%d"' % (match.group(2), n),
                                '<span class="new" id="%s-%d"' % (match.group(2), n), 1)
    return html


def main(argv):
    if len(argv) != 2:
        print("usage: python3 docs/code_lines.py PAGE", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            html = handle.read()
        with open(argv[1], "w", encoding="utf-8") as handle:
            handle.write(mark_new(fold_alignment(rewrite(html))))
    except OSError as error:
        print("code_lines.py: %s" % error, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
