"""The Lua side: sandboxed runtime, object handles, the Card/Duel/Effect/Group/Debug libraries."""
