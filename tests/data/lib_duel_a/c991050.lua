-- A card without effects (duelhost tests).
function c991050.initial_effect(c)
end
