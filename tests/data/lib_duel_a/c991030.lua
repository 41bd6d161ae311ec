-- Event watcher (duelhost tests): a face-up Continuous Spell whose continuous effects
-- count the events they see.  Each effect's labels become {times seen, ev, ep, r, rp}
-- and its label object the event's card group.
local s = c991030

local WATCHED = {
	EVENT_SPSUMMON_SUCCESS, EVENT_CUSTOM + 991030, EVENT_REMOVE_COUNTER + 0x3, EVENT_MOVE,
	EVENT_EQUIP, EVENT_TO_GRAVE, EVENT_BREAK_EFFECT, EVENT_DESTROYED, EVENT_TO_HAND,
	EVENT_CHANGE_POS, EVENT_DAMAGE, EVENT_RECOVER, EVENT_SUMMON_SUCCESS, EVENT_SSET,
	EVENT_CONTROL_CHANGED, EVENT_PAY_LPCOST, EVENT_RELEASE, EVENT_REMOVE, EVENT_DRAW,
	EVENT_DISCARD, EVENT_TO_DECK,
}

function s.initial_effect(c)
	for _, code in ipairs(WATCHED) do
		local e = Effect.CreateEffect(c)
		e:SetType(EFFECT_TYPE_FIELD + EFFECT_TYPE_CONTINUOUS)
		e:SetCode(code)
		e:SetRange(LOCATION_SZONE)
		e:SetOperation(s.seen)
		c:RegisterEffect(e)
	end
end

function s.seen(e, tp, eg, ep, ev, re, r, rp)
	e:SetLabel(e:GetLabel() + 1, ev, ep, r, rp)
	e:SetLabelObject(eg)
end
