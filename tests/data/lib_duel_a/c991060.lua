-- A card without effects (duelhost tests).
function c991060.initial_effect(c)
end
