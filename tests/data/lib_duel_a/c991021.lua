-- A card without effects (duelhost tests).
function c991021.initial_effect(c)
end
