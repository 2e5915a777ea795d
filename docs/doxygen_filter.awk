# Doxygen's input filter for kiln's public headers. The headers document with plain C comments, as
# the rest of the code does; this turns them into Doxygen comments on the way in, so the headers
# need no second comment style:
#   - the file's opening comment documents the file (\file);
#   - a comment on lines of its own documents the declaration after it (/* -> /**), and when a run
#     of one-line declarations follows it without a blank line, every declaration of the run (a
#     Doxygen member group, with DISTRIBUTE_GROUP_DOC);
#   - a comment after code on the same line documents that member, value or macro (/* -> /**<);
#   - inside comments, WGSL's @attributes and #include are text, not Doxygen commands.
# Lines are neither added nor removed, so Doxygen's warnings point at the header's own lines.
{ line[NR] = $0 }

# A section divider ("/* ---- the graph ---- */") heads a part of the header; it documents
# nothing, so it is left as a plain comment.
function divider(s) { return s ~ /^[ \t]*\/\* *-{3,}/ }
function own_comment(s) { return s ~ /^[ \t]*\/\*([^*]|$)/ && !divider(s) }
function one_line_declaration(s) { return s ~ /^[A-Za-z_].*;[ \t]*$/ && s !~ /[{}]/ && s !~ /^(typedef struct|#)/ }

END {
    for (i = 1; i <= NR; i++) {
        s = line[i]
        if (own_comment(s)) {
            start = i
            end = i
            while (line[end] !~ /\*\//) end++
            sub(/\/\*/, "/**", line[start])
            if (start == first_text()) sub(/\*\//, "\\file */", line[end])
            run = end + 1
            while (run <= NR && one_line_declaration(line[run])) run++
            if (run - end > 2) {
                line[start] = "/**@{*/" line[start]
                line[run - 1] = line[run - 1] " /**@}*/"
            }
            i = end
        } else if (s ~ /[^ \t].*[ \t]\/\* / && s !~ /^[ \t]*\*/) {
            sub(/[ \t]\/\* /, " /**< ", s)
            line[i] = s
        }
    }
    for (i = 1; i <= NR; i++) {
        s = line[i]
        gsub(/@(location|interpolate|builtin|binding|group|vertex|fragment|compute|workgroup_size|align|size|id)/, "\\\\&", s)
        gsub(/#include/, "\\#include", s)
        print s
    }
}

function first_text(   k) {
    for (k = 1; k <= NR; k++) if (line[k] !~ /^[ \t]*$/) return k
    return 0
}
