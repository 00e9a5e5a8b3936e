-- wrk script: POSTs the JSON body in env BODY to env URLPATH, counts answers by status, and
-- prints one result line (throughput, p50/p99 latency, statuses) for bench/load.sh.
local body = os.getenv("BODY")
if body == "" then body = nil end
local path = os.getenv("URLPATH")
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  statuses = {}
  wrk.method = body and "POST" or "GET"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  return wrk.format(nil, path)
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
