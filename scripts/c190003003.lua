--Lantern Summons: Stance
--The one-Token Spell with an explicit position choice: the mask offered to the player
--holds only the positions that pass the permission check, and Duel.SelectPosition is
--asked about the created Token (a Card, not its code).
local s,id=GetID()
local TOKEN=190003002

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_SPECIAL_SUMMON+CATEGORY_TOKEN)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.target)
	e1:SetOperation(s.activate)
	c:RegisterEffect(e1)
end
function s.cansummon(tp,pos)
	return Duel.GetLocationCount(tp,LOCATION_MZONE)>0
		and Duel.IsPlayerCanSpecialSummonMonster(tp,TOKEN,0xf05,TYPES_TOKEN_MONSTER,500,500,1,RACE_FIEND,ATTRIBUTE_DARK,pos)
end
function s.target(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return s.cansummon(tp,POS_FACEUP) end
	Duel.SetOperationInfo(0,CATEGORY_TOKEN,nil,1,0,0)
	Duel.SetOperationInfo(0,CATEGORY_SPECIAL_SUMMON,nil,1,tp,0)
end
function s.activate(e,tp,eg,ep,ev,re,r,rp)
	local positions=0
	if s.cansummon(tp,POS_FACEUP_ATTACK) then positions=positions|POS_FACEUP_ATTACK end
	if s.cansummon(tp,POS_FACEUP_DEFENSE) then positions=positions|POS_FACEUP_DEFENSE end
	if positions==0 then return end
	local token=Duel.CreateToken(tp,TOKEN)
	local position=Duel.SelectPosition(tp,token,positions)
	Duel.SpecialSummon(token,0,tp,tp,false,false,position)
end
