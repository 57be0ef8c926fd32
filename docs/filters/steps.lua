--[[
steps.lua -- a step of a kernel, shown as the compiler sees it (runs after cu-lines.lua).

A step section names the code it shows with an empty-looking block:

    ```{.step kernel=d_gemm step=3 show="d_gemm request_slab" context=2 numbers=1}
    (one line for readers of the raw Markdown; replaced on the page)
    ```

It is not tangled (its first class is not cuda). This filter runs

    python3 docs/step_code.py INPUT --kernel d_gemm --step 3 --show "..." [--context N] [--numbers] [--spell]

which folds the template's switches for that step (docs/step_code.py says
how) and prints the lines new since the step before, the step's rate from
the committed CSV, and the code. The block becomes

    <div class="step-code" data-new="9,45-54">
      <div class="sourceCode">...the folded code, highlighted as cuda...</div>
      <p class="step-rate">On the H100 at 8192³ ...</p>
    </div>

and docs/code_lines.py marks the lines named in data-new. The build stops
when step_code.py fails: a step section never shows stale or missing code.
]]

local python = os.getenv("GEMM_PYTHON") or "python3"

local function fail(msg)
  error("steps.lua: " .. msg .. "\n", 0)
end

function CodeBlock(block)
  if block.classes[1] ~= "step" then return nil end
  local input = PANDOC_STATE.input_files[1]
  local kernel, step, show = block.attributes["kernel"], block.attributes["step"], block.attributes["show"]
  if kernel == nil or step == nil or show == nil then
    fail("a .step block needs kernel, step and show attributes (near: " .. block.text:sub(1, 60) .. ")")
  end
  local args = {"docs/step_code.py", input, "--kernel", kernel, "--step", step, "--show", show}
  if block.attributes["context"] then
    table.insert(args, "--context"); table.insert(args, block.attributes["context"])
  end
  if block.attributes["numbers"] then table.insert(args, "--numbers") end
  if block.attributes["spell"] then table.insert(args, "--spell") end
  local ok, out = pcall(pandoc.pipe, python, args, "")
  if not ok then fail("'" .. python .. " docs/step_code.py ... --step " .. step .. "' failed: " .. tostring(out)) end
  local new, rest = out:match("^new: ([%d,%-]*)\n(.*)$")
  if new == nil then fail("cannot read step_code.py's output: " .. out:sub(1, 120)) end
  local rate, code = rest:match("^rate: ([^\n]*)\n(.*)$")
  if rate == nil then fail("no rate line in step_code.py's output") end
  code = code:gsub("\n$", "")
  local rate_blocks = pandoc.read(rate, "markdown").blocks
  local caption = pandoc.Div(rate_blocks, pandoc.Attr("", {"step-rate"}))
  return pandoc.Div({pandoc.CodeBlock(code, pandoc.Attr("", {"cuda"})), caption},
    pandoc.Attr("", {"step-code"}, {{"data-kernel", kernel}, {"data-step", step}, {"data-new", new}}))
end
