-- A card without effects (duelhost tests).
function c991020.initial_effect(c)
end
