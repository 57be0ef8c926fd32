--[[
page.lua -- small layout fixes for the woven page.

* Tables are wrapped in <div class="table-wrap"> so a wide table scrolls
  inside its own box instead of widening the page on a phone, and lose the
  relative column widths pandoc gives a table with long rows (a <colgroup>
  of percentages, fixed whatever the cells hold): the browser sizes each
  column to its content, so a text column wraps and a number column does not;
  the first column's names may break after an underscore.
* Figures (an image alone in a paragraph, with a caption) keep pandoc's
  <figure> markup, but the image sits in <div class="figure-body"> so that a
  detailed figure can keep a minimum width and scroll on narrow screens while
  its caption wraps normally. An optional alt attribute gives a longer text
  alternative than the caption:
      ![Caption shown under the figure.](docs/figures/tiles.svg){alt="What the figure shows, in words."}
  pandoc 2 reads such a figure as a paragraph (Para below), pandoc 3 as a
  Figure block (Figure below); both give the same markup.
* A paragraph holding only a display equation becomes
  <div class="math-display">, which scrolls instead of widening the page.
* A product of numbers, "128 × 16" or "16 × 4096 × 14336", and a pair,
  "459.6 / 458.3", stay on one line: the spaces around each × or / between
  numbers become no-break spaces.
* Code in a table never wraps on a phone right after an option's leading
  dashes (--shapes=FILE broke after "--"): they and the name are one span.
* The page gets a <title> even when the document has none.
]]

-- A name in a table's first column may break after each underscore (<wbr>),
-- as text or code, on a phone only (class "name", docs/style.css): there the
-- first column stays in view while the table scrolls, and BF16_IN_F32_OUT
-- whole took 153 of the column's 343 pixels.
local function name_html(element, text)   -- text: letters, digits and underscores only
  local broken = text:gsub("_(%w)", "_<wbr>%1")
  return pandoc.RawInline("html", "<" .. element .. ' class="name">' .. broken .. "</" .. element .. ">")
end

local NAME = "^%w+_%w+_[%w_]+$"   -- a type pair, not d_gemm or a call

local break_names = {
  Str = function(str) if str.text:find(NAME) then return name_html("span", str.text) end end,
  Code = function(code) if code.text:find(NAME) then return name_html("code", code.text) end end
}

-- On a phone a table's code may wrap (docs/style.css), and a browser breaks
-- after any hyphen: --shapes=FILE came out as "--" over "shapes=FILE". An
-- option's leading dashes and its whole name, inner hyphens included, are one
-- no-wrap span, so it may break at a space or before its "=", never after its
-- dashes nor inside its name (--shared- over limit=BYTES, issue 41), nor a
-- short one (--beta=X) at all: a phone's first column stays within 36% of the
-- table (tests/test_page.py); the text is unchanged.
local function escape_html(text)
  return (text:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"))
end

local function whole_words_html(text)
  local words = {}
  for word in text:gmatch("%S+") do
    local dashes, rest = word:match("^(%-+%w[%w%-]*)(.*)$")
    if dashes and #rest <= 2 and #word <= 10 then dashes, rest = word, "" end   -- --beta=X: "=X" alone says nothing
    rest = rest and escape_html(rest):gsub("^=", "<wbr>=")   -- --iterations, then =N where the column is narrow
    words[#words + 1] = dashes and ('<span class="word">' .. escape_html(dashes) .. "</span>" .. rest)
                        or escape_html(word)
  end
  return pandoc.RawInline("html", "<code>" .. table.concat(words, " ") .. "</code>")
end

local whole_words = {
  Code = function(code)
    local text = code.text   -- single spaces only, none at the ends: the words and spaces give it back unchanged
    if text:find("%-%-?%w") and not text:find(NAME) and not text:find("%s%s") and not text:find("^%s") and
       not text:find("%s$") and not text:find("[\t\n]") then
      return whole_words_html(text)
    end
  end
}

local function keep_words(rows)
  for _, row in ipairs(rows) do
    for _, cell in ipairs(row.cells) do
      cell.contents = pandoc.walk_block(pandoc.Div(cell.contents), whole_words).content
    end
  end
end

local function break_first_cells(rows)
  for _, row in ipairs(rows) do
    local cell = row.cells[1]
    if cell then
      cell.contents = pandoc.walk_block(pandoc.Div(cell.contents), break_names).content
    end
  end
end

function Table(tbl)
  for i, spec in ipairs(tbl.colspecs) do
    tbl.colspecs[i] = {spec[1], nil}      -- keep the alignment, drop the width
  end
  break_first_cells(tbl.head.rows)
  for _, body in ipairs(tbl.bodies) do break_first_cells(body.body) end
  keep_words(tbl.head.rows)
  for _, body in ipairs(tbl.bodies) do keep_words(body.body) end
  return pandoc.Div({tbl}, pandoc.Attr("", {"table-wrap"}))
end

-- "128 × 16" broke as "128 ×" and "16" at some widths, a table's "459.6 / 458.3"
-- at its slash on a phone, and `block_m` × `block_n` at its ×: the spaces around a
-- × or a / between two numbers (a Str with a digit: 4096, 8192³, (16, 84%), and
-- around a × between two names in code, become no-break spaces.
local NO_BREAK = pandoc.Str("\u{00A0}")
local JOINERS = {["×"] = true, ["/"] = true}

local function has_digit(inline)
  return inline ~= nil and inline.t == "Str" and inline.text:find("%d") ~= nil
end

local function factor(inline, joiner)
  return has_digit(inline) or (joiner == "×" and inline ~= nil and inline.t == "Code")
end

function Inlines(inlines)
  for i = 2, #inlines - 3 do
    if inlines[i].t == "Space" and inlines[i + 1].t == "Str" and JOINERS[inlines[i + 1].text] and
       inlines[i + 2].t == "Space" and factor(inlines[i - 1], inlines[i + 1].text) and
       factor(inlines[i + 3], inlines[i + 1].text) then
      inlines[i] = NO_BREAK
      inlines[i + 2] = NO_BREAK
    end
  end
  return inlines
end

-- A paragraph that is only a display equation becomes <div class="math-display">,
-- which scrolls sideways when the equation is wider than the column.
local function only_display_math(para)
  local found = false
  for _, inline in ipairs(para.content) do
    if inline.t == "Math" and inline.mathtype == "DisplayMath" then
      found = true
    elseif inline.t ~= "Space" and inline.t ~= "SoftBreak" and inline.t ~= "LineBreak" then
      return false
    end
  end
  return found
end

-- <figure><div class="figure-body"><img></div><figcaption>caption</figcaption></figure>
local function figure_markup(image, caption, figure_id)
  local alt = image.attributes["alt"] or pandoc.utils.stringify(caption)
  image.attributes["alt"] = nil
  image.identifier = ""
  local img = pandoc.Image({pandoc.Str(alt)}, image.src, "", image.attr)
  local open = figure_id ~= "" and ('<figure id="' .. figure_id .. '">') or "<figure>"
  return {
    pandoc.RawBlock("html", open),
    pandoc.Div({pandoc.Plain({img})}, pandoc.Attr("", {"figure-body"})),
    pandoc.RawBlock("html", "<figcaption>"),
    pandoc.Plain(caption),
    pandoc.RawBlock("html", "</figcaption>\n</figure>"),
  }
end

-- In prose a browser breaks code after any hyphen and at spaces: --peak came
-- out as "--" over "peak", steps-h100.csv as "steps-" over "h100.csv", and
-- u = k_tile / stages as "u =" over the rest. Short code (20 characters at
-- most) stays whole; in longer code each part between spaces and slashes that
-- holds a hyphen does, and a long dotted name (a PTX instruction) breaks only
-- after a dot: "...m64n256k16.f" over "32.f16.f16" at 375 px. A long path
-- (slashes, no spaces) breaks only after a slash, each part whole:
-- `docs/bench/.../before/suite-h200.csv` came out as "befo" over "re/..." at
-- 375 px. The text is unchanged, so a copied command still works.
local SHORT_CODE = 20

local function prose_code_html(text)
  if #text <= SHORT_CODE then
    return '<code class="whole">' .. escape_html(text) .. "</code>"
  end
  local path = text:find("/") and not text:find("%s")
  local html = escape_html(text):gsub("/", "\1"):gsub("[^%s\1]+", function(part)   -- \1: a slash, for now
    if part:find("%-") or (path and #part <= SHORT_CODE) then return '<span class="word">' .. part .. "</span>" end
    if #part > SHORT_CODE and part:find("%.") then
      local pieces = {}
      for piece in part:gmatch("[^.]*%.?") do
        if piece ~= "" then pieces[#pieces + 1] = '<span class="word">' .. piece .. "</span>" end
      end
      return table.concat(pieces, "<wbr>")
    end
  end)
  html = html:gsub("\1", path and "/<wbr>" or "/")
  return "<code>" .. html .. "</code>"
end

local prose_code = {
  Code = function(code)
    if code.identifier == "" and #code.classes == 0 and not code.text:find("[\t\n]") then
      return pandoc.RawInline("html", prose_code_html(code.text))
    end
  end
}

-- pandoc 2.17 marks an implicit figure as a paragraph holding one image
-- whose title starts with "fig:".
function Para(para)
  if only_display_math(para) then
    return pandoc.Div({pandoc.Plain(para.content)}, pandoc.Attr("", {"math-display"}))
  end
  if #para.content ~= 1 or para.content[1].t ~= "Image" then
    return pandoc.walk_block(para, prose_code)
  end
  local image = para.content[1]
  if image.title:sub(1, 4) ~= "fig:" then return nil end
  return figure_markup(image, image.caption, image.identifier)
end

-- pandoc 3 reads an implicit figure as a Figure block holding one image; the
-- figure's identifier is the image's, moved up.
function Figure(figure)
  if #figure.content ~= 1 or #figure.content[1].content ~= 1 then return nil end
  local image = figure.content[1].content[1]
  if image.t ~= "Image" then return nil end
  local caption = pandoc.utils.blocks_to_inlines(figure.caption.long)
  local figure_id = figure.identifier ~= "" and figure.identifier or image.identifier
  return figure_markup(image, caption, figure_id)
end

function Meta(meta)
  if meta.title == nil and meta.pagetitle == nil then
    meta.pagetitle = "gemm.md"
    return meta
  end
  return nil
end
