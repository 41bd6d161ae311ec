--[[message
A position of our own cards for the board tests (tests/test_play_board.py): Set cards on
both sides, three copies of one card in the Extra Deck and the GY, counters, and a
Spell that targets a monster in the GY (Revival Rite).
]]
Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN+DUEL_SIMPLE_AI, 5)
Debug.SetPlayerInfo(0, 8000, 0, 0)
Debug.SetPlayerInfo(1, 8000, 0, 0)

Debug.AddCard(190001078, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)              -- Revival Rite
Debug.AddCard(190001012, 0, 0, LOCATION_SZONE, 0, POS_FACEDOWN)             -- Snare Pit, Set
local defender = Debug.AddCard(190002001, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_DEFENSE, true)
Debug.PreAddCounter(defender, 0x1, 1)                                       -- 1 Spell Counter
Debug.AddCard(190001001, 0, 0, LOCATION_MZONE, 0, POS_FACEDOWN_DEFENSE)     -- Gavel Clerk, Set
for i = 1, 3 do
    Debug.AddCard(190004011, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN)         -- Sprouting Xyz x3
    Debug.AddCard(190001002, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)           -- Gavel Bailiff x3
end
Debug.AddCard(190000001, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)

Debug.AddCard(190001013, 1, 1, LOCATION_SZONE, 1, POS_FACEDOWN)             -- Rebuke, Set
Debug.AddCard(190001003, 1, 1, LOCATION_MZONE, 3, POS_FACEDOWN_DEFENSE)     -- Gavel Juror, Set
Debug.AddCard(190000021, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN)

Debug.ReloadFieldEnd()
aux.BeginPuzzle()
