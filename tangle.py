#!/usr/bin/env python3
"""tangle.py: pull the CUDA program out of the literate document gemm.md.

    python3 tangle.py [gemm.md] [-o out/gemm.cu] [--check | --map]

gemm.md is at once an article and a program.  pandoc weaves it into a web
page; this script tangles it into the source file that nvcc compiles.  It uses
only the Python 3 standard library.

Which blocks are code
---------------------
A fenced code block is tangled if and only if its FIRST class is ``cuda``:

    ```cuda                                   tangled
    ```{.cuda .details summary="Printing"}    tangled (a collapsible block)
    ```{#setup .cuda}   ```CUDA               tangled (pandoc lower-cases a bare word)
    ```sh   ```text   ```c   ```   ```{.details .cuda}      never tangled

Tangled blocks are written in document order.  Before each one goes a line
``#line N "gemm.md"``, N being the line of gemm.md that holds the block's
first line of code (the line after the opening fence), so that compiler
errors, assert, __LINE__, cuda-gdb and compute-sanitizer all point into
gemm.md.  The file starts with a one-line comment saying it is generated.
Before the first block of each chapter (a level-1 heading, ``# Title``, after
a blank line or at the start) goes a banner, ``/* ==== Title ==== */``, so
that someone who opens the output alone sees where each part begins.

What a fenced code block is follows pandoc 2.17's markdown reader (the
default for .md files), so that the page and the program agree:

* The opening fence is a run of 3 or more backticks or tildes, indented at
  most 3 spaces (a tab is 4 columns, so a tab in front means "not a fence").
  After it, optionally after spaces, comes nothing, one word (``cuda``), or
  pandoc attributes (``{.cuda .details summary="x"}``), then only spaces.
  pandoc reads anything else (``cuda foo``, ``{.cuda} x``) as paragraph
  text, so tangle.py reports such a line as an error, unless it is plainly
  inline code (```` ```cuda ```` opens a block: the run closes on the line).
* The closing fence is a run of the same character, at least as long as the
  opening one, indented at most 3 spaces, followed by nothing but spaces.
  Shorter runs, runs of the other character and runs with text after them
  are content: that is how a longer fence shows a shorter one.
* Content lines lose the opening fence's indentation (at most that many
  columns of leading spaces); everything else, tabs included, is verbatim.
* Indented (4-space) code blocks are never code for tangle.py.

Where a fence may stand
-----------------------
pandoc reads a fence differently depending on what surrounds it, so
tangle.py accepts a fence only where that reading is certain, and stops
with an error (never a silent omission) where it is not:

* A fence follows a blank line, the start of the file, or a heading, rule,
  lone HTML tag or comment that stands alone at the left margin.  Right
  after text, or right after another block's closing fence, pandoc may read
  it as part of what is above: a paragraph (which only a ``` fence at the
  margin interrupts), a table, a definition, a list item, an inline code
  span.  Such a fence is an error: put a blank line before it.
* Only fences indented at most 3 spaces are tangled, including those in list
  items whose text is indented 2 or 3 spaces ("- " and "1. " lists).  In an
  indented cuda block every line, the closing fence included, must start
  with at least as many spaces as the opening fence, and no line may be a
  closing fence but for its indentation: inside a list item pandoc measures
  indentation from the item's text.
* A cuda fence anywhere else -- after ``>`` in a block quote, after a list
  marker on the same line, indented 4 columns or more (a "-   " list item, a
  definition, an indented code block) -- is an error: pandoc may show it as
  code on the page that out/gemm.cu would not contain.
* An HTML comment that starts a line (``<!--``, indented at most 3 spaces)
  hides everything up to its ``-->``, fences included, from both the page
  and the program: the way to comment a block out.  A comment that is never
  closed, or a ``<!--`` in the middle of a line that is not closed on it, is
  an error; so is a comment of several lines right after text.
* A YAML metadata block (a line ``---`` at the start of the file or after a
  blank line, followed by a non-blank line, up to a line ``---`` or ``...``)
  is metadata, not text; a cuda fence inside it is an error.

Not modelled (the pandoc agreement test in tests/test_tangle.py would catch
it in gemm.md): fences inside raw HTML that pandoc keeps verbatim (<pre>,
<script>, <style>), and fences of other languages nested 4 or more columns
deep in list items whose lines are not indented with the item.

Input and output
----------------
The input is UTF-8; a leading byte-order mark is dropped and CRLF line
endings are read as LF (as pandoc does).  A carriage return that is not
followed by a line feed is an error: compilers would count it as a line
break and every #line number after it would be off.  The output is UTF-8
with LF line endings, and is the same for the same input, always.

The output is written only when its content changes (so its modification
time and make's idea of what is up to date stay put), through a temporary
file in the same directory that is renamed over the old one, so a failure
never leaves half a file.  The output directory is created when missing.

--check  writes nothing; exits 0 when the output file holds exactly what
         the input tangles to, else 1 with a message to run make.
--map    writes nothing; prints a JSON list, one object per tangled block in
         order: {"index": i (0-based), "md_first": N, "md_last": N2,
         "cu_first": L1, "cu_last": L2} -- the lines of the block's code in
         the input and in the output (not counting the #line directive).

Errors
------
Malformed input (an unclosed fence, an empty cuda block, a cuda block whose
last line ends in a backslash, which would swallow the next #line, a fence
where pandoc's reading is uncertain, as above), no cuda block at all, an
empty, missing, unreadable or non-UTF-8 input, or an output that cannot be
written: one line on stderr,
``tangle.py: gemm.md:LINE: what is wrong`` (``tangle.py: PATH: ...`` when no
line applies), exit status 1, and the output file left as it was.  A bad
command line exits with status 2.
"""

import argparse
import json
import os
import re
import sys
import tempfile

PROG = "tangle.py"
DEFAULT_INPUT = "gemm.md"
DEFAULT_OUTPUT = os.path.join("out", "gemm.cu")
TAB_STOP = 4            # pandoc's default tab stop
TANGLED_CLASS = "cuda"


class TangleError(Exception):
    """A problem with the input or the output, reported as one line."""

    def __init__(self, path, line, message):
        super().__init__(message)
        self.path = path
        self.line = line
        self.message = message

    def __str__(self):
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


class Block:
    """One tangled code block: its code lines and where they sit in the input."""

    def __init__(self, md_first, lines, chapter=None):
        self.md_first = md_first                    # 1-based line of the first code line
        self.md_last = md_first + len(lines) - 1
        self.lines = lines
        self.chapter = chapter                      # the title of the chapter it is in, or None


# --------------------------------------------------------------------------
# Reading the input
# --------------------------------------------------------------------------

def read_lines(path):
    """Return the input's lines (without line endings), as pandoc sees them."""
    try:
        with open(path, "rb") as source:
            raw = source.read()
    except OSError as error:
        raise TangleError(path, None, f"cannot read: {describe(error, path)}") from None
    if not raw:
        raise TangleError(path, None, "the file is empty: nothing to tangle")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise TangleError(path, line, f"not valid UTF-8 (byte 0x{raw[error.start]:02x})") from None
    if text.startswith("\ufeff"):                   # byte-order mark
        text = text[1:]
    text = text.replace("\r\n", "\n")
    stray_cr = text.find("\r")
    if stray_cr >= 0:
        raise TangleError(path, text.count("\n", 0, stray_cr) + 1,
                          "carriage return without a line feed "
                          "(use LF or CRLF line endings)")
    lines = text.split("\n")    # not splitlines(): it also splits on \f, \v, \x1c...
    if lines[-1] == "":
        lines.pop()             # the final newline ends the last line
    return lines


# --------------------------------------------------------------------------
# Recognising fences, the way pandoc 2.17's markdown reader does
# --------------------------------------------------------------------------

# An opening fence: up to 3 spaces, a run of >= 3 backticks or tildes, the info string.
FENCE = re.compile(r"(?P<indent> {0,3})(?P<run>`{3,}|~{3,})(?P<info>.*)\Z")
# A raw block attribute, {=html}: a fence, but pandoc makes a RawBlock of it, not code.
RAW_ATTRIBUTE = re.compile(r"\{[ \t]*=[\w-]+[ \t]*\}")
# What may stand in front of a fence nested in a block quote, list item,
# definition or example list; used only to reject such cuda fences.
CONTAINER_PREFIX = re.compile(r"""
    (?: [ \t]*
        (?: >                                       # block quote
          | (?: [-+*:~]                             # bullet, definition
              | \(? (?: [0-9]{1,9} | [A-Za-z] | [ivxlcdmIVXLCDM]+ | \# | @[\w-]* ) [.)]
            ) (?=[ \t])                             # ordered, lettered, roman, example
        )
    )*
    [ \t]*""", re.VERBOSE)
COMMENT_OPEN = re.compile(r" {0,3}<!--")
# Lines that, at the start of a block, are whole blocks by themselves, so a
# fence may follow them directly: an ATX heading, a horizontal rule, a lone
# HTML tag, a link reference definition.  (A ::: line is text to pandoc
# unless it opens or closes a div; tangle.py takes it as text.)
ONE_LINE_BLOCK = re.compile(r"""
      \#{1,6} (?:[ \t].*)? \Z
    | ([-*_]) (?:[ \t]*\1){2,} [ \t]* \Z
    | </?[A-Za-z][A-Za-z0-9-]* (?:[ \t][^<>]*)? /?> [ \t]* \Z
    | \[ [^\]]+ \]: [ \t]* \S.* \Z""", re.VERBOSE)
# A chapter heading: "# Title", optionally closed by #s, optionally with {attributes}.
CHAPTER = re.compile(r"\#[ \t]+(?P<title>.*?)(?:[ \t]+\#+)?(?:[ \t]*\{[^{}]*\})?[ \t]*\Z")
YAML_OPEN = re.compile(r"---[ \t]*\Z")
YAML_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*\Z")


def is_blank(text):
    """pandoc's blank line: nothing but spaces and tabs."""
    return text.strip(" \t") == ""


class Fence:
    """An opening fence: its character, length, indentation and classes."""

    def __init__(self, char, length, indent, classes):
        self.char = char
        self.length = length
        self.indent = indent
        self.classes = classes

    @property
    def tangled(self):
        return bool(self.classes) and self.classes[0] == TANGLED_CLASS

    def closes(self, line):
        """True when line is this fence's closing fence."""
        match = FENCE.match(line)
        return (match is not None
                and match["run"][0] == self.char
                and len(match["run"]) >= self.length
                and is_blank(match["info"]))


def parse_fence(line):
    """Classify a line.

    Returns (None, False) for a line that is not fence-like at all,
    (Fence, True) for an opening fence pandoc accepts, and (None, True) for a
    line that starts like a fence but whose info string pandoc rejects.
    """
    match = FENCE.match(line)
    if match is None:
        return None, False
    classes = parse_info(match["info"])
    if classes is None:
        return None, True
    run = match["run"]
    return Fence(run[0], len(run), len(match["indent"]), classes), True


def parse_info(info):
    """The classes of an info string, or None when pandoc rejects it.

    pandoc tries, in order: a raw attribute {=format}, attributes {...}, one
    word.  Whatever it takes must be followed by nothing but spaces.
    """
    rest = info.lstrip(" \t")
    if rest == "":
        return []
    if rest.startswith("{"):
        raw = RAW_ATTRIBUTE.match(rest)
        if raw:
            return [] if is_blank(rest[raw.end():]) else None
        parsed = parse_attributes(rest)
        if parsed is not None:
            classes, end = parsed
            return classes if is_blank(rest[end:]) else None
    word = re.match(r"[^ \t]+", rest).group()
    if not is_blank(rest[len(word):]):
        return None
    return [language_id(word)]


def language_id(word):
    """pandoc's toLanguageId: a bare word is lower-cased, c++ becomes cpp."""
    word = word.lower()
    return {"c++": "cpp", "objective-c": "objectivec"}.get(word, word)


def parse_attributes(text):
    """Parse pandoc attributes at the start of text, which starts with '{'.

    Returns (classes, index just past '}'), or None when pandoc's
    attribute parser would fail.  Attributes are #id, .class, key=value
    (class="a b" adds classes) and '-' (the class "unnumbered").
    """
    classes = []
    pos = skip_spaces(text, 1)
    while pos < len(text):
        char = text[pos]
        if char == "}":
            return classes, pos + 1
        if char in "#.":
            end = identifier_end(text, pos + 1)
            if end is None:
                return None
            if char == ".":
                classes.append(text[pos + 1:end])
            pos = end
        elif char == "-":
            classes.append("unnumbered")
            pos += 1
        else:
            key_end = identifier_end(text, pos)
            if key_end is None or key_end >= len(text) or text[key_end] != "=":
                return None
            key = text[pos:key_end]
            value, pos = attribute_value(text, key_end + 1)
            if key == "class":
                classes.extend(value.split())
        pos = skip_spaces(text, pos)
    return None


def skip_spaces(text, pos):
    while pos < len(text) and text[pos] in " \t":
        pos += 1
    return pos


def identifier_end(text, pos):
    """End of a pandoc identifier (a letter, then letters, digits, -_:.) at pos."""
    if pos >= len(text) or not text[pos].isalpha():
        return None
    pos += 1
    while pos < len(text) and (text[pos].isalnum() or text[pos] in "-_:."):
        pos += 1
    return pos


def escaped_char(text, pos):
    """A backslash escape at pos (backslash + non-alphanumeric): the char, or None."""
    if text[pos] == "\\" and pos + 1 < len(text) and not text[pos + 1].isalnum():
        return text[pos + 1]
    return None


def attribute_value(text, pos):
    """Parse an attribute value at pos; returns (value, position after it)."""
    for quote in "\"'":
        quoted = quoted_value(text, pos, quote)
        if quoted is not None:
            return quoted
    for empty in ('""', "''"):
        if text.startswith(empty, pos):
            return "", pos + 2
    value = []                              # a bare value: up to a space or '}'
    while pos < len(text) and text[pos] not in " \t}":
        escaped = escaped_char(text, pos)
        value.append(text[pos] if escaped is None else escaped)
        pos += 1 if escaped is None else 2
    return "".join(value), pos


def quoted_value(text, pos, quote):
    """pandoc's `enclosed`: a quote, no space after it, at least one character."""
    if pos >= len(text) or text[pos] != quote:
        return None
    pos += 1
    if pos >= len(text) or text[pos].isspace():
        return None
    value = []
    first = True                            # the first character may even be the quote
    while pos < len(text):
        if text[pos] == quote and not first:
            return "".join(value), pos + 1
        escaped = escaped_char(text, pos)
        value.append(text[pos] if escaped is None else escaped)
        pos += 1 if escaped is None else 2
        first = False
    return None


def closes_inline(line, run):
    """True when the run of fence characters closes again later on the same
    line, as in ```` ```cuda ```` : inline code, not a fence."""
    char = re.escape(run[0])
    return re.search(rf"(?<!{char}){char}{{{len(run)}}}(?!{char})",
                     line[line.index(run) + len(run):]) is not None


def backtick_run_end(text, pos):
    """Index just past the run of backticks starting at pos."""
    while pos < len(text) and text[pos] == "`":
        pos += 1
    return pos


def find_closing_run(text, pos, length):
    """Start of the first run of exactly length backticks at or after pos, or -1."""
    match = re.compile(rf"(?<!`)`{{{length}}}(?!`)").search(text, pos)
    return -1 if match is None else match.start()


def inline_comment_opening(line):
    """Column of a '<!--' in the middle of a prose line that is not closed on
    that line (code spans closed on the line do not count), or None."""
    pos = 0
    while pos < len(line):
        if line[pos] == "\\":
            pos += 2
        elif line[pos] == "`":
            run_end = backtick_run_end(line, pos)
            close = find_closing_run(line, run_end, run_end - pos)
            pos = pos + 1 if close < 0 else backtick_run_end(line, close)
        elif line.startswith("<!--", pos):
            close = line.find("-->", pos + 4)
            if close < 0:
                return pos
            pos = close + 3
        else:
            pos += 1
    return None


def nested_cuda_fence(line):
    """If line holds a cuda fence behind a container prefix ('> ', '- ', '1. ')
    or behind 4 or more columns of indentation, say where it is; else None."""
    prefix = CONTAINER_PREFIX.match(line).group()
    fence, _ = parse_fence(line[len(prefix):])
    if fence is None or not fence.tangled:
        return None
    if ">" in prefix:
        return "inside a block quote"
    if prefix.strip(" \t"):
        return "inside a list item or definition"
    return "indented 4 columns or more (list item content or an indented code block)"


def strip_indent(line, width):
    """Remove at most width columns of leading spaces, as pandoc does: a tab
    in the way is first turned into the spaces up to its tab stop."""
    column = 0
    while column < width and line:
        if line[0] == " ":
            line = line[1:]
            column += 1
        elif line[0] == "\t":
            line = " " * (TAB_STOP - column % TAB_STOP) + line[1:]
        else:
            break
    return line


# --------------------------------------------------------------------------
# Finding the blocks
# --------------------------------------------------------------------------

def find_blocks(lines, path):
    """Return the tangled blocks of a document given as a list of lines."""
    blocks = []
    chapter = None          # the title of the last chapter heading ("# Title") seen
    index = 0
    block_start = True      # does a new block start here (start, blank line, after a fence)?
    after_text = False      # is the line just above text (a paragraph, a list item...)?
    while index < len(lines):
        line = lines[index]
        number = index + 1

        # A YAML metadata block: skipped, but it must not hide a cuda fence.
        if (block_start and YAML_OPEN.match(line)
                and index + 1 < len(lines) and not is_blank(lines[index + 1])):
            end = next((k for k in range(index + 1, len(lines)) if YAML_CLOSE.match(lines[k])),
                       None)
            if end is not None:
                for k in range(index + 1, end):
                    fence, _ = parse_fence(lines[k].lstrip(" \t"))
                    if fence is not None and fence.tangled:
                        raise TangleError(path, k + 1,
                                          "this cuda fence is inside the YAML metadata block "
                                          f"that starts at line {number}, and is not tangled; "
                                          "end the metadata block first")
                index, block_start, after_text = end + 1, True, False
                continue

        # An HTML comment starting the line hides everything up to its -->.
        comment = COMMENT_OPEN.match(line)
        if comment:
            end, trailing_text = skip_comment(lines, index, comment.end(), path)
            if after_text and end > index + 1:
                raise TangleError(path, number,
                                  "put a blank line before this comment: right after text, "
                                  "pandoc reads it as part of that text")
            # Only a comment at the left margin, after a blank line, ends
            # what is above it (an indented one may belong to a list item).
            at_margin = not line.startswith(" ")
            after_text = after_text or trailing_text or not at_margin
            index, block_start = end, not after_text
            continue

        fence, fence_like = parse_fence(line)
        if fence is not None:
            if after_text:
                # pandoc's reading of a fence right after text (or right after
                # another block) depends on what that is: a paragraph, a table,
                # a list item, a definition, an open code span.  A blank line
                # takes all doubt away.
                raise TangleError(path, number,
                                  "put a blank line before this fence: right after text or "
                                  "another block, pandoc may read it as part of that")
            close = next((k for k in range(index + 1, len(lines)) if fence.closes(lines[k])),
                         None)
            if close is None:
                raise TangleError(path, number,
                                  f"code fence {fence.char * fence.length} opened here is never "
                                  f"closed (close it with a line of at least {fence.length} "
                                  f"{'backticks' if fence.char == '`' else 'tildes'})")
            if fence.tangled:
                check_indentation(lines, index, close, fence, path)
                code = [strip_indent(lines[k], fence.indent) for k in range(index + 1, close)]
                check_block(path, number, close, code)
                # Inside a list item pandoc measures indentation from the item's
                # text, where an indented closing fence does close the block.
                for k in range(index + 1, close):
                    if fence.closes(lines[k].lstrip(" \t")):
                        raise TangleError(path, k + 1,
                                          "this indented line would close the cuda block "
                                          f"opened on line {number} inside a list item; "
                                          "indent the closing fence at most 3 spaces")
                blocks.append(Block(number + 1, code, chapter))
            # A fence may not follow directly: if this one was in a list item,
            # pandoc would take the next one into the item too.
            index, block_start, after_text = close + 1, True, True
            continue

        if fence_like and not closes_inline(line, FENCE.match(line)["run"]):
            raise TangleError(path, number,
                              "pandoc does not read this line as a code fence: after the "
                              "fence it takes one word or {attributes}, then nothing "
                              f"({line.strip()!r})")

        where = nested_cuda_fence(line)
        if where:
            raise TangleError(path, number,
                              f"this cuda fence is {where}, and is not tangled; "
                              "put it at the left margin (indented at most 3 spaces)")

        if inline_comment_opening(line) is not None:
            raise TangleError(path, number,
                              "an HTML comment that opens in the middle of a line and is not "
                              "closed on it; start it on a line of its own (<!-- at the left "
                              "margin)")

        if is_blank(line):
            block_start, after_text = True, False
        else:
            heading = CHAPTER.match(line) if block_start else None
            if heading:
                chapter = heading["title"]
            # A heading (or rule, lone HTML tag, link definition) at the left
            # margin, after a blank line, is a block by itself; anything else
            # is text, or may be the text of a list item.
            after_text = after_text or not ONE_LINE_BLOCK.match(line)
            block_start = False
        index += 1

    if not blocks:
        raise TangleError(path, None,
                          "no code to tangle: no fenced block has `cuda` as its first class "
                          "(```cuda or ```{.cuda ...})")
    return blocks


def skip_comment(lines, index, column, path):
    """Skip an HTML comment whose '<!--' ends at lines[index][column].

    Another comment opened after the '-->' on the same line is skipped too.
    Returns (index of the next line, whether text follows the last '-->').
    """
    opened = index + 1
    while True:
        close = lines[index].find("-->", column)
        if close < 0:
            index, column = index + 1, 0
            if index == len(lines):
                raise TangleError(path, opened, "HTML comment <!-- is never closed by -->")
            continue
        again = lines[index].find("<!--", close + 3)
        if again < 0:
            return index + 1, not is_blank(lines[index][close + 3:])
        opened, column = index + 1, again + 4


def check_indentation(lines, open_index, close_index, fence, path):
    """An indented cuda fence may be in a list item, where pandoc takes the
    item's indentation off each line first (a line indented less, or by a
    tab, loses a different amount, and one after a blank line ends the item).
    So every line of an indented cuda block, its closing fence included, must
    start with at least as many spaces as its opening fence."""
    if fence.indent == 0:
        return
    for k in range(open_index + 1, close_index + 1):
        if not is_blank(lines[k]) and not lines[k].startswith(" " * fence.indent):
            raise TangleError(path, k + 1,
                              f"this line of the cuda block opened on line {open_index + 1} "
                              f"must start with at least {fence.indent} spaces, as its fence "
                              "does (or put the fence at the left margin)")


def check_block(path, open_line, close_index, code):
    """Reject cuda blocks that would break the output or its #line numbers."""
    if not code:
        raise TangleError(path, open_line, "empty cuda block")
    if code[-1].rstrip(" \t").endswith("\\"):
        raise TangleError(path, close_index,
                          "the last line of a cuda block ends in a backslash, which would "
                          "join the next #line directive to it")


# --------------------------------------------------------------------------
# Writing the output
# --------------------------------------------------------------------------

def c_string(text):
    """text as the inside of a C string literal."""
    out = []
    for char in text:
        if char in "\\\"":
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7f:
            out.append(f"\\{ord(char):03o}")
        else:
            out.append(char)
    return "".join(out)


def banner(title):
    """The comment that opens a chapter in the output: /* ==== title ==== */, the
    title without Markdown's backticks and emphasis."""
    plain = re.sub(r"[`*]|(?<!\w)_|_(?!\w)", "", title).replace("*/", "* /")
    return f"/* ==== {plain} ==== */"


def render(blocks, md_path, out_path):
    """Return (text of the output file, the --map entries)."""
    header = (f"// {c_string(out_path)}: generated from {c_string(md_path)} by tangle.py. "
              f"Edit {c_string(md_path)}, not this file.")
    out_lines = [header]
    entries = []
    chapter = None
    for index, block in enumerate(blocks):
        if block.chapter is not None and block.chapter != chapter:
            out_lines.append(banner(block.chapter))
        chapter = block.chapter
        out_lines.append(f'#line {block.md_first} "{c_string(md_path)}"')
        cu_first = len(out_lines) + 1
        out_lines.extend(block.lines)
        entries.append({"index": index, "md_first": block.md_first, "md_last": block.md_last,
                        "cu_first": cu_first, "cu_last": len(out_lines)})
    return "\n".join(out_lines) + "\n", entries


def tangle(md_path, out_path):
    """Tangle md_path; return (bytes of the output, --map entries)."""
    text, entries = render(find_blocks(read_lines(md_path), md_path), md_path, out_path)
    return text.encode("utf-8"), entries


def read_existing(path, verb):
    """The output file's current bytes, or None when there is no such file.
    verb says what was being done, for the error message."""
    try:
        with open(path, "rb") as existing:
            return existing.read()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise TangleError(path, None, f"cannot {verb}: {describe(error, path)}") from None


def describe(error, path):
    """An OSError in words, naming the file at fault when it is not path."""
    words = error.strerror or str(error)
    if error.filename and os.fspath(error.filename) != path:
        words += f" ({os.fspath(error.filename)})"
    return words


def write_if_changed(path, data):
    """Write data to path through a temporary file and a rename, unless the
    file already holds exactly data.  Returns True when it wrote."""
    if read_existing(path, "write") == data:
        return False
    directory = os.path.dirname(path) or "."
    try:
        os.makedirs(directory, exist_ok=True)
        mode = current_mode(path)
        handle, temporary = tempfile.mkstemp(dir=directory,
                                             prefix="." + os.path.basename(path) + ".",
                                             suffix=".tmp")
    except OSError as error:
        raise TangleError(path, None, f"cannot write: {describe(error, path)}") from None
    try:
        with os.fdopen(handle, "wb") as output:
            output.write(data)
            output.flush()
            os.fsync(output.fileno())
        os.chmod(temporary, mode)           # mkstemp makes it 0600
        os.replace(temporary, path)
    except BaseException as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if isinstance(error, OSError):
            raise TangleError(path, None, f"cannot write: {describe(error, path)}") from None
        raise
    return True


def current_mode(path):
    """The permissions the output should have: the old file's, or the umask's."""
    try:
        return os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

class Usage(Exception):
    """A bad command line."""


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message):
        raise Usage(message)


def parse_arguments(argv):
    parser = ArgumentParser(
        prog=PROG,
        description="Tangle the literate CUDA program gemm.md into out/gemm.cu.",
        epilog="The rules for which blocks are code are in this script's docstring.")
    parser.add_argument("input", nargs="?", default=DEFAULT_INPUT,
                        help=f"the literate document (default {DEFAULT_INPUT})")
    parser.add_argument("-o", "--output", default=DEFAULT_OUTPUT,
                        help=f"the source file to write (default {DEFAULT_OUTPUT})")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="write nothing; exit 1 if the output is not up to date")
    mode.add_argument("--map", action="store_true",
                      help="write nothing; print where each block lands, as JSON")
    arguments = parser.parse_args(argv)
    if not arguments.input or not arguments.output:
        raise Usage("empty file name")
    return arguments


def same_file(first, second):
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.abspath(first) == os.path.abspath(second)


def run(arguments):
    """Do what the command line asks; returns the exit status."""
    md_path, out_path = arguments.input, arguments.output
    if same_file(md_path, out_path):
        raise TangleError(out_path, None, "the output would overwrite the input")
    data, entries = tangle(md_path, out_path)
    if arguments.map:
        sys.stdout.write("[\n" + ",\n".join("  " + json.dumps(entry) for entry in entries)
                         + "\n]\n")
        return 0
    if arguments.check:
        existing = read_existing(out_path, "check")
        if existing == data:
            return 0
        state = "does not exist" if existing is None else "is out of date"
        print(f"{PROG}: {out_path} {state}: it is not what {md_path} tangles to; "
              f"run make (or python3 tangle.py {md_path} -o {out_path})", file=sys.stderr)
        return 1
    write_if_changed(out_path, data)
    return 0


def main(argv=None):
    try:
        return run(parse_arguments(argv))
    except Usage as error:
        print(f"{PROG}: {error} (try {PROG} --help)", file=sys.stderr)
        return 2
    except TangleError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
