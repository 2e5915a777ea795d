# kiln_embed_bytes(FILE VAR): the bytes of FILE as a C initializer list ("0x2f,0x2f,...,\n"), sixteen
# per line. Shared by embed.cmake (one string) and embed_set.cmake (a named set).
function(kiln_embed_bytes file var)
    file(READ "${file}" hex HEX)
    string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
    string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
    set(${var} "${bytes}" PARENT_SCOPE)
endfunction()
