-- duelhost bundled utility library.
-- A small library of our own with the helpers the bundled cards use. The names
-- and behaviour follow the reference script library (utility.lua of
-- Fluorohydride/ygopro-scripts) so that scripts written for it read the same.
-- A real script folder replaces this file with its own utility.lua.

-- the table, code and id-offset of the card whose script is being loaded
function GetID()
	local offset = self_code < 100000000 and 1 or 100
	return self_table, self_code, offset
end

-- the bit32-style helpers older scripts use
bit = {}
function bit.band(a, b) return a & b end
function bit.bor(a, b) return a | b end
function bit.bxor(a, b) return a ~ b end
function bit.lshift(a, b) return a << b end
function bit.rshift(a, b) return a >> b end
function bit.bnot(a) return ~a end

Auxiliary = {}
aux = Auxiliary

-- hint string n of a card: the text str<n+1> of its database row
function Auxiliary.Stringid(code, n)
	return code * 16 + n
end

-- iterate a group: for tc in aux.Next(g) do ... end
function Auxiliary.Next(g)
	local first = true
	return function()
		if first then
			first = false
			return g:GetFirst()
		end
		return g:GetNext()
	end
end

function Auxiliary.NULL() end
function Auxiliary.TRUE() return true end
function Auxiliary.FALSE() return false end

-- "Card", "Group", "Effect", or Lua's own type name
function Auxiliary.GetValueType(v)
	local t = type(v)
	if t == "userdata" then
		local mt = getmetatable(v)
		if mt == Group then return "Group" end
		if mt == Effect then return "Effect" end
		return "Card"
	end
	return t
end

-- a filter that calls f(c, value)
function Auxiliary.FilterBoolFunction(f, a, b, c)
	return function(target)
		return f(target, a, b, c)
	end
end

-- The end of a puzzle file (single mode): player 0 must win this turn, since
-- their LP become 0 when the turn ends, and they skip the Draw and Standby Phases.
function Auxiliary.BeginPuzzle()
	local lose = Effect.GlobalEffect()
	lose:SetType(EFFECT_TYPE_FIELD + EFFECT_TYPE_CONTINUOUS)
	lose:SetCode(EVENT_TURN_END)
	lose:SetCountLimit(1)
	lose:SetOperation(Auxiliary.PuzzleOp)
	Duel.RegisterEffect(lose, 0)
	for _, code in ipairs({EFFECT_SKIP_DP, EFFECT_SKIP_SP}) do
		local skip = Effect.GlobalEffect()
		skip:SetType(EFFECT_TYPE_FIELD)
		skip:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
		skip:SetCode(code)
		skip:SetTargetRange(1, 0)
		Duel.RegisterEffect(skip, 0)
	end
end

function Auxiliary.PuzzleOp(e, tp)
	Duel.SetLP(0, 0)
end
