-- Test Xyz Monster with no effects of its own (tests/data/lib_duel_b/harness.py).
local s = c992007
function s.initial_effect(c)
end
