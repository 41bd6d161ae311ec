"""Engine methods that exist to serve the Lua libraries (logic taken out of the bindings)."""
