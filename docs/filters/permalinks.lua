--[[
permalinks.lua -- a link to itself on every heading, without JavaScript.

    ## Tiles {#tiles}   ->   <h2 id="tiles">Tiles<a class="permalink" href="#tiles" ...></a></h2>

The link is empty: style.css draws the "#" with ::before, so the table of
contents (which pandoc builds from the heading's text, links removed) stays
clean, and aria-label names the link for screen readers.
]]

function Header(header)
  if header.identifier == "" then return nil end
  local link = pandoc.Link({}, "#" .. header.identifier, "",
    pandoc.Attr("", {"permalink"}, {["aria-label"] = "Link to this section"}))
  header.content:insert(link)
  return header
end
