--[[
  Writes the freeze's reason over its placeholder, keeping who froze and when.
  KEYS[1] the freeze
  ARGV[1] reason              ARGV[2] placeholder
  Returns {added (1|0), freeze JSON}, or nil when not frozen.
]]
local raw = redis.call('GET', KEYS[1])
if not raw then return nil end
local f = cjson.decode(raw)
if f.reason ~= ARGV[2] then return {0, raw} end
local at = string.match(raw, '"at":(%d+)')
local out = '{"by":' .. cjson.encode(f.by) .. ',"at":' .. at .. ',"reason":' .. cjson.encode(ARGV[1]) .. '}'
redis.call('SET', KEYS[1], out)
return {1, out}
