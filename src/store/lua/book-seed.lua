--[[
  The open seed of the address book (`rampart addresses import --from-paid`): compare and set, so
  that two imports never both hold it. The marker is a claim while the seed card is being
  created, then that card's request id until its approval adds the entries (book-add.lua).
  KEYS[1] the open-seed marker
  ARGV[1] the value expected now ('' for none)   ARGV[2] the new value ('' deletes the marker)
  ARGV[3] its time to live in ms ('0' for none)
  Returns {1} when set, or {0, the value now ('' for none)}.
]]
local now = redis.call('GET', KEYS[1]) or ''
if now ~= ARGV[1] then return {0, now} end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
elseif ARGV[3] == '0' then
  redis.call('SET', KEYS[1], ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return {1}
