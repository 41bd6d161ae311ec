-- Test Synchro Monster with no effects of its own (tests/data/lib_duel_b/harness.py).
local s = c992006
function s.initial_effect(c)
end
