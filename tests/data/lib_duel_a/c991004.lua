-- A monster without effects of its own whose summon can be checked by scripts (duelhost tests).
function c991004.initial_effect(c)
end
