--Lantern Procession
--"Up to" a number of Tokens: the first one, then a question before each further one
--while the effect still permits one. Each step's boolean result is checked; every
--path after the first step reaches the single SpecialSummonComplete.
local s,id=GetID()
local TOKEN=id+1
local MAX=3

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetCategory(CATEGORY_SPECIAL_SUMMON+CATEGORY_TOKEN)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetTarget(s.target)
	e1:SetOperation(s.activate)
	c:RegisterEffect(e1)
end
function s.canmuster(tp)
	return Duel.IsPlayerCanSpecialSummonMonster(tp,TOKEN,0xf05,TYPES_TOKEN_MONSTER,500,500,4,RACE_FIEND,ATTRIBUTE_DARK)
end
function s.target(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return Duel.GetLocationCount(tp,LOCATION_MZONE)>0 and s.canmuster(tp) end
	Duel.SetOperationInfo(0,CATEGORY_TOKEN,nil,1,0,0)
	Duel.SetOperationInfo(0,CATEGORY_SPECIAL_SUMMON,nil,1,tp,0)
end
function s.activate(e,tp,eg,ep,ev,re,r,rp)
	local limit=math.min(Duel.GetLocationCount(tp,LOCATION_MZONE),MAX)
	if limit<=0 then return end
	if Duel.IsPlayerAffectedByEffect(tp,59822133) then limit=1 end
	if not s.canmuster(tp) then return end
	for i=1,limit do
		local token=Duel.CreateToken(tp,TOKEN)
		if not Duel.SpecialSummonStep(token,0,tp,tp,false,false,POS_FACEUP) then break end
		if i==limit or not Duel.SelectYesNo(tp,aux.Stringid(id,0)) then break end
	end
	Duel.SpecialSummonComplete()
end
