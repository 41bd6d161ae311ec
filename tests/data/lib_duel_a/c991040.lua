-- A card without effects (duelhost tests).
function c991040.initial_effect(c)
end
