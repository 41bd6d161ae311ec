-- Test constants (a few names of the reference's constant.lua, same values).
TYPE_MONSTER = 0x1
TYPE_NORMAL = 0x10
TYPE_EFFECT = 0x20
RESET_EVENT = 0x1000
CONSTANT_LOADED = true
