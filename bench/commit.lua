-- wrk script for bench/tables: each wrk thread (one connection each) chains
-- UpdateTableMetadataLocation on its own table, taking the versionToken of every answer for the
-- next request, so every request is a successful compare-and-swap commit.
-- Settings come from the environment: FLOE_BENCH_TABLES is "path|token|warehouse" per table,
-- separated by spaces; thread i takes table i.

local counter = 0
local threads = {}

function setup(thread)
  counter = counter + 1
  thread:set("index", counter)
  table.insert(threads, thread)
end

function init(args)
  local i = 0
  for entry in string.gmatch(os.getenv("FLOE_BENCH_TABLES"), "%S+") do
    i = i + 1
    if i == index then
      path, token, warehouse = string.match(entry, "([^|]+)|([^|]+)|([^|]+)")
    end
  end
  n = 0
  failures = 0
end

local auth = "AWS4-HMAC-SHA256 Credential=AKIDBENCH/20240101/us-east-1/s3tables/aws4_request, " ..
             "SignedHeaders=host;x-amz-date, Signature=0"

function request()
  n = n + 1
  local body = string.format('{"versionToken":"%s","metadataLocation":"%s/metadata/%08d.metadata.json"}',
                             token, warehouse, n)
  return wrk.format("PUT", path, {["Authorization"] = auth, ["Content-Type"] = "application/json"}, body)
end

function response(status, headers, body)
  local next = string.match(body, '"versionToken":"([^"]+)"')
  if status == 200 and next then
    token = next
  else
    failures = failures + 1
  end
end

function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    io.write(string.format("failures %d\n", thread:get("failures")))
  end
end
