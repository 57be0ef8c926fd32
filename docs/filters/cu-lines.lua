--[[
cu-lines.lua -- tell every tangled code block where it lands in out/gemm.cu.

A fenced block is tangled iff its FIRST class is `cuda` (the rule tangle.py
implements). We ask tangle.py itself where each block goes:

    python3 tangle.py INPUT --map

prints a JSON list, one object per tangled block, in document order:

    {"index": i, "md_first": N, "md_last": N2, "cu_first": L1, "cu_last": L2}

The Nth cuda block of the document gets the Nth entry, recorded as the
attributes data-cu-lines="L1-L2" and data-md-lines="N-N2" (listings.lua turns
them into the visible label "gemm.md N–N2 → out/gemm.cu L1–L2").

The build stops with an error when pandoc and tangle.py disagree: a different
number of cuda blocks, or a block whose line count differs from its entry.

Environment (set by docs/html.mk): GEMM_PYTHON (default python3) and
GEMM_TANGLE (default tangle.py).
]]

local python = os.getenv("GEMM_PYTHON") or "python3"
local tangle = os.getenv("GEMM_TANGLE") or "tangle.py"

local function fail(msg)
  error("cu-lines.lua: " .. msg .. "\n", 0)
end

-- Read the map from tangle.py. pandoc 2.17 has no JSON module, but the format
-- is fixed and flat (integers only), so each object is read with patterns.
local function read_map()
  local input = PANDOC_STATE.input_files[1]
  if input == nil or input == "-" then
    fail("needs the Markdown file name (not stdin) to run " .. tangle .. " --map")
  end
  local ok, out = pcall(pandoc.pipe, python, {tangle, input, "--map"}, "")
  if not ok then
    fail("'" .. python .. " " .. tangle .. " " .. input .. " --map' failed: " .. tostring(out))
  end
  local map = {}
  for object in out:gmatch("{(.-)}") do
    local entry = {}
    for _, key in ipairs({"index", "md_first", "md_last", "cu_first", "cu_last"}) do
      local value = object:match('"' .. key .. '"%s*:%s*(%-?%d+)')
      if value == nil then
        fail("entry " .. (#map + 1) .. " of " .. tangle .. " --map has no integer '" .. key .. "': {" .. object .. "}")
      end
      entry[key] = tonumber(value)
    end
    if entry.index ~= #map then
      fail(tangle .. " --map: expected index " .. #map .. ", got " .. entry.index)
    end
    map[#map + 1] = entry
  end
  if #map == 0 and not out:match("^%s*%[%s*%]%s*$") then
    fail("could not read the output of " .. tangle .. " --map: " .. out:sub(1, 200))
  end
  return map
end

local map = nil   -- read on the first cuda block
local seen = 0    -- cuda blocks met so far, in document order

-- Lines in a code block's text (pandoc drops only the final newline).
local function line_count(text)
  if text == "" then return 0 end
  local _, newlines = text:gsub("\n", "")
  return newlines + 1
end

local function annotate(block)
  if block.classes[1] ~= "cuda" then return nil end
  map = map or read_map()
  seen = seen + 1
  local entry = map[seen]
  if entry == nil then
    fail("the document has more cuda blocks than " .. tangle .. " --map lists (" .. #map .. ")")
  end
  local lines = line_count(block.text)
  local md_lines = math.max(entry.md_last - entry.md_first + 1, 0)
  local cu_lines = math.max(entry.cu_last - entry.cu_first + 1, 0)
  if lines ~= md_lines or lines ~= cu_lines then
    fail(string.format("cuda block %d (gemm.md lines %d-%d) has %d lines in pandoc, " ..
      "%d in gemm.md and %d in out/gemm.cu according to %s --map",
      seen, entry.md_first, entry.md_last, lines, md_lines, cu_lines, tangle))
  end
  block.attributes["data-cu-lines"] = entry.cu_first .. "-" .. entry.cu_last
  block.attributes["data-md-lines"] = entry.md_first .. "-" .. entry.md_last
  return block
end

local function check_count(doc)
  local listed = map and #map or #read_map()
  if seen ~= listed then
    fail("pandoc sees " .. seen .. " cuda blocks but " .. tangle .. " --map lists " .. listed)
  end
  return nil
end

-- Two passes: code blocks first (in document order), then the final count.
return {
  {CodeBlock = annotate},
  {Pandoc = check_count},
}
