-- wrk script: sends the request of the URL given to wrk DEPTH times back to back in one write
-- (HTTP/1.1 pipelining), as the TechEmpower plaintext test does with depth 16.
--   wrk ... -s bench/tfb/pipeline.lua URL -- 16
local depth = 16

function init(args)
  depth = tonumber(args[1]) or depth
  local one = wrk.format()
  local all = {}
  for i = 1, depth do
    all[i] = one
  end
  req = table.concat(all)
end

function request()
  return req
end
