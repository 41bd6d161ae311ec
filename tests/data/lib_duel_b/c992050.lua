-- Test Fusion Monster: its Fusion Material effect takes every Level 4 monster offered,
-- and records the arguments its operation got (s.seen_gc, s.seen_chkf, s.seen_tp).
local s = c992050

function s.initial_effect(c)
	local e1 = Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_SINGLE)
	e1:SetCode(EFFECT_FUSION_MATERIAL)
	e1:SetProperty(EFFECT_FLAG_CANNOT_DISABLE + EFFECT_FLAG_UNCOPYABLE)
	e1:SetCondition(s.fcondition)
	e1:SetOperation(s.foperation)
	c:RegisterEffect(e1)
end

function s.mfilter(c)
	return c:GetLevel() == 4
end

function s.fcondition(e, g, gc, chkf)
	return g ~= nil and g:IsExists(s.mfilter, 2, nil)
end

function s.foperation(e, tp, eg, ep, ev, re, r, rp, gc, chkf)
	s.seen_gc = gc
	s.seen_chkf = chkf
	s.seen_tp = tp
	s.seen_rp = rp
	s.seen_re = re
	Duel.SetFusionMaterial(eg:Filter(s.mfilter, nil))
end
