--Tally Keeper
--Script state of the three kinds a fork must carry: the effect's label (its uses), a flag
--effect on the card (one per use while it stays face-up) and a global table (TallyLedger:
--each player's uses this duel, shared by every copy). The LP gained depends on all three.
local s,id=GetID()

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetDescription(aux.Stringid(id,0))
	e1:SetCategory(CATEGORY_RECOVER)
	e1:SetType(EFFECT_TYPE_IGNITION)
	e1:SetRange(LOCATION_MZONE)
	e1:SetCountLimit(1)
	e1:SetOperation(s.operation)
	c:RegisterEffect(e1)
	if not TallyLedger then
		TallyLedger={[0]=0,[1]=0}
	end
end
function s.operation(e,tp,eg,ep,ev,re,r,rp)
	local c=e:GetHandler()
	e:SetLabel(e:GetLabel()+1)
	TallyLedger[tp]=TallyLedger[tp]+1
	if c:IsFaceup() and c:IsLocation(LOCATION_MZONE) then
		c:RegisterFlagEffect(id,RESET_EVENT+RESETS_STANDARD,0,1)
	end
	Duel.Recover(tp,e:GetLabel()*100+c:GetFlagEffect(id)*10+TallyLedger[tp],REASON_EFFECT)
end
