--Test card 200: a Normal Monster; the host must never run this file
LOADED_200=true
