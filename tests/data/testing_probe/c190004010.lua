--Testing probe (tests/test_testing_*.py): replaces Cracked Lantern's script in the
--toolkit's tests.  Activating it asks player tp the question named by the global
--PROBE (set by the test through duel.lua) and stores the answer in RESULT.
local s,id=GetID()

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	e1:SetCondition(s.condition)
	e1:SetTarget(s.target)
	e1:SetOperation(s.activate)
	c:RegisterEffect(e1)
end
function s.condition(e,tp,eg,ep,ev,re,r,rp)
	if PROBE=="condition_error" then error("the condition broke") end
	return true
end
function s.target(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then
		if PROBE=="check_error" then local x=nil; return x.check end
		return true
	end
	if PROBE=="target_error" then local x=nil; return x.field end
end
local function codes(g)
	local t={}
	for tc in aux.Next(g) do t[#t+1]=tc:GetCode() end
	table.sort(t)
	return t
end
function s.activate(e,tp,eg,ep,ev,re,r,rp)
	local kind=PROBE
	if kind=="option" then
		RESULT=Duel.SelectOption(tp,1150,1151,1152)
	elseif kind=="yesno" then
		RESULT=Duel.SelectYesNo(tp,1150)
	elseif kind=="effectyn" then
		RESULT=Duel.SelectEffectYesNo(tp,e:GetHandler())
	elseif kind=="number" then
		RESULT=Duel.AnnounceNumber(tp,1,3,5)
	elseif kind=="race" then
		RESULT=Duel.AnnounceRace(tp,1,RACE_ALL)
	elseif kind=="attribute" then
		RESULT=Duel.AnnounceAttribute(tp,1,ATTRIBUTE_ALL)
	elseif kind=="announce" then
		RESULT=Duel.AnnounceCard(tp)
	elseif kind=="position" then
		RESULT=Duel.SelectPosition(tp,e:GetHandler(),POS_FACEUP_ATTACK+POS_FACEUP_DEFENSE)
	elseif kind=="place" then
		RESULT=Duel.SelectField(tp,1,LOCATION_MZONE,LOCATION_MZONE,0,190000001)
	elseif kind=="disfield" then
		RESULT=Duel.SelectDisableField(tp,1,LOCATION_MZONE,LOCATION_MZONE,0)
	elseif kind=="select" then
		RESULT=codes(Duel.SelectMatchingCard(tp,nil,tp,LOCATION_HAND,0,1,2,nil))
	elseif kind=="select2" then
		RESULT=codes(Duel.SelectMatchingCard(tp,nil,tp,LOCATION_HAND,0,2,2,nil))
	elseif kind=="cancel" then
		local g=Duel.GetFieldGroup(tp,LOCATION_HAND,0):CancelableSelect(tp,1,1,nil)
		RESULT=g and #g or "cancelled"
	elseif kind=="unselect" then
		local g=Duel.GetFieldGroup(tp,LOCATION_HAND,0)
		local sg=Group.CreateGroup()
		while true do
			local tc=(g-sg):SelectUnselect(sg,tp,#sg>=2,false,2,3)
			if not tc then break end
			if sg:IsContains(tc) then sg:RemoveCard(tc) else sg:AddCard(tc) end
			if #sg==3 then break end
		end
		RESULT=codes(sg)
	elseif kind=="sum" then
		local g=Duel.GetFieldGroup(tp,LOCATION_HAND,0)
		RESULT=codes(g:SelectWithSumEqual(tp,Card.GetLevel,4,1,3))
	elseif kind=="sort" then
		Duel.SortDecktop(tp,tp,3)
		local t={}
		for tc in aux.Next(Duel.GetDecktopGroup(tp,3)) do t[#t+1]={tc:GetSequence(),tc:GetCode()} end
		table.sort(t,function(a,b) return a[1]>b[1] end)
		RESULT={t[1][2],t[2][2],t[3][2]}
	elseif kind=="counter" then
		Duel.RemoveCounter(tp,1,0,0xf40,2,REASON_EFFECT)
		RESULT=Duel.GetCounter(tp,1,0,0xf40)
	elseif kind=="rps" then
		RESULT=Duel.RockPaperScissors()
	elseif kind=="two" then
		RESULT={Duel.SelectYesNo(tp,1150),Duel.SelectOption(tp,1150,1151)}
	elseif kind=="opponent" then
		RESULT=Duel.SelectYesNo(1-tp,1150)
	elseif kind=="error" then
		local tc=Duel.GetFirstTarget()
		RESULT=tc:GetCode()
	end
end
