--[[
listings.lua -- how code blocks are presented (runs after cu-lines.lua).

1. Collapsible blocks. Tedious but necessary code is folded away:

       ```{.cuda .details summary="Printing matrices"}
       ...
       ```

   becomes

       <details class="listing" data-cu-lines="L1-L2" data-md-lines="N-N2">
         <summary>Printing matrices <span class="cu-lines">gemm.md N–N2 → out/gemm.cu L1–L2</span></summary>
         <div class="sourceCode">...</div>
       </details>

   The summary is Markdown (inline `code` and *emphasis* work); without one it
   reads "Show the code". Any block may be folded, not only cuda ones.

2. Every other tangled block (with data-cu-lines from cu-lines.lua) gets a
   label above it:

       <div class="listing" data-cu-lines="L1-L2" data-md-lines="N-N2">
         <div class="cu-lines">gemm.md N–N2 → out/gemm.cu L1–L2</div>
         <div class="sourceCode">...</div>
       </div>
]]

local function escape_html(text)
  return (text:gsub("&", "&amp;"):gsub("<", "&lt;"):gsub(">", "&gt;"):gsub('"', "&quot;"))
end

-- data-md-lines="700-712", data-cu-lines="12-30" -> "gemm.md 700–712 → out/gemm.cu 12–30"
-- (en dashes): the lines a compiler message names, and where they land. Or nil.
local function label_text(block)
  local range = block.attributes["data-cu-lines"]
  local md_range = block.attributes["data-md-lines"]
  if range == nil or md_range == nil then return nil end
  local first, last = range:match("^(%d+)-(%d+)$")
  local md_first, md_last = md_range:match("^(%d+)-(%d+)$")
  return "gemm.md " .. md_first .. "–" .. md_last .. " → out/gemm.cu " .. first .. "–" .. last, range
end

-- Markdown inline text -> HTML, without the surrounding <p>.
local function inline_html(markdown)
  local blocks = pandoc.read(markdown, "markdown").blocks
  if #blocks == 0 then return "" end
  local html = pandoc.write(pandoc.Pandoc({pandoc.Plain(blocks[1].content)}), "html5")
  return (html:gsub("%s+$", ""))
end

function CodeBlock(block)
  local label, range = label_text(block)
  local md_range = block.attributes["data-md-lines"]
  -- the data attributes move from the code block to the wrapper
  block.attributes["data-cu-lines"] = nil
  block.attributes["data-md-lines"] = nil
  local data = ""
  if range then data = ' data-cu-lines="' .. range .. '" data-md-lines="' .. md_range .. '"' end

  if block.classes:includes("details") then
    local summary = block.attributes["summary"] or "Show the code"
    block.attributes["summary"] = nil
    block.classes = block.classes:filter(function (c) return c ~= "details" end)
    local open = '<details class="listing"' .. data .. '>\n<summary>' .. inline_html(summary)
    if label then   -- each half kept whole: a phone wraps the label at its arrow, never inside a range
      local source, tangled = label:match("^(.-) → (.*)$")
      open = open .. ' <span class="cu-lines"><span class="nw">' .. escape_html(source) .. '</span> → <span class="nw">'
        .. escape_html(tangled) .. '</span></span>'
    end
    open = open .. '</summary>'
    return {pandoc.RawBlock("html", open), block, pandoc.RawBlock("html", "</details>")}
  end

  if label then
    local caption = pandoc.Div({pandoc.Plain({pandoc.Str(label)})}, pandoc.Attr("", {"cu-lines"}))
    return pandoc.Div({caption, block},
      -- a list of pairs, not a table: keeps the attribute order (and the output) stable
      pandoc.Attr("", {"listing"}, {{"data-cu-lines", range}, {"data-md-lines", md_range}}))
  end
  return nil
end
