-- wrk script for bench/load.sh: POSTs to env URLPATH the JSON body template in env BODY with
-- @MOVES@ replaced by one game of bench/lines.txt after another (so that the engine does not
-- answer one position from its table), GETs when BODY is empty; counts answers by status and
-- prints one result line (throughput, p50/p99 latency, statuses).
local template = os.getenv("BODY")
if template == "" then template = nil end
local path = os.getenv("URLPATH")
local bodies = {}
local next_body = 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  wrk.method = template and "POST" or "GET"
  wrk.headers["Content-Type"] = "application/json"
  if template then
    for line in io.lines("lines.txt") do
      local moves = {}
      for m in line:gmatch("%S+") do table.insert(moves, '"' .. m .. '"') end
      local body = template:gsub("@MOVES@", table.concat(moves, ","))
      table.insert(bodies, body)
    end
  end
end

function request()
  if not template then return wrk.format(nil, path) end
  next_body = next_body % #bodies + 1
  return wrk.format(nil, path, nil, bodies[next_body])
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  local counts = {}
  for _, t in ipairs(threads) do
    local s = t:get("statuses")
    for k, v in pairs(s) do counts[k] = (counts[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(counts) do table.insert(parts, k .. ":" .. v) end
  table.sort(parts)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT rps=%.0f p50_ms=%.2f p99_ms=%.2f statuses=%s socket_errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    table.concat(parts, ","), errors))
end
