--[[message
A puzzle of our own for the tests (bundled demo cards only).
Win this turn: your opponent has 1700 LP and one monster in Defense Position.
Solution: Normal Summon Cinderwood Coal Raptor, destroy Tidehollow Storm Petrel
with one attacker, then attack directly with Cinderwood Ashen Hound or Coal Raptor.
]]
Debug.SetAIName("Tidehollow Keeper")
Debug.ReloadFieldBegin(DUEL_ATTACK_FIRST_TURN+DUEL_SIMPLE_AI, 5)
Debug.SetPlayerInfo(0, 100, 0, 0)
Debug.SetPlayerInfo(1, 1700, 0, 0)

-- your hand and field
Debug.AddCard(190000011, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)              -- Coal Raptor 1800
local hound = Debug.AddCard(190000008, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK, true)  -- Ashen Hound 1700
Debug.PreSummon(hound, SUMMON_TYPE_NORMAL)
local defender = Debug.AddCard(190002001, 0, 0, LOCATION_MZONE, 3, POS_FACEUP_DEFENSE, true)
Debug.PreAddCounter(defender, 0x1, 1)
Debug.AddCard(190000001, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)

-- your opponent's field
Debug.AddCard(190000026, 1, 1, LOCATION_MZONE, 2, POS_FACEUP_DEFENSE, true)  -- Storm Petrel 1200/700
Debug.AddCard(190000021, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN)

Debug.ReloadFieldEnd()
Debug.ShowHint("Win this turn!")
Debug.Message("puzzle loaded")
aux.BeginPuzzle()
