# Writes and installs gltf-anim(1), the manual page, at install time (install(CODE)
# in cmake/packaging.cmake), from the built executable's own --help texts: the
# top-level one and each command's, so the page cannot drift from the options.
# Inputs: GLTF_ANIM_EXE (the built executable), GLTF_ANIM_VERSION, GLTF_ANIM_MAN_WORK
# (a scratch folder), GLTF_ANIM_MAN_DEST (install folder, relative to the prefix).

function(gltf_anim_help out)
  execute_process(COMMAND "${GLTF_ANIM_EXE}" ${ARGN} --help
    RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gltf-anim ${ARGN} --help failed (${rc}): ${err}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# roff: a backslash is \e, a line starting with . or ' would be a request (\& first),
# a hyphen in text is \- (a minus, which is what options are made of).
function(gltf_anim_roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

gltf_anim_help(top)
# The commands are the lines "  name  description" under "Commands:".
string(REGEX MATCH "Commands:\n(.*)\n\n" block "${top}")
string(REGEX MATCHALL "\n  ([a-z][a-z-]*) " lines "\n${CMAKE_MATCH_1}")
set(commands "")
foreach(line IN LISTS lines)
  string(STRIP "${line}" name)
  list(APPEND commands "${name}")
endforeach()
if(NOT commands)
  message(FATAL_ERROR "no command found in gltf-anim --help:\n${top}")
endif()

gltf_anim_roff(top_roff "${top}")
set(page ".TH GLTF\\-ANIM 1 \"\" \"gltf\\-anim ${GLTF_ANIM_VERSION}\" \"User Commands\"
.SH NAME
gltf\\-anim \\- validator and conformance suite for glTF 2.0 animation
.SH SYNOPSIS
.B gltf\\-anim
.I command
[\\fIoptions\\fR]
.SH DESCRIPTION
gltf\\-anim validates glTF 2.0 assets for animation and what animation touches
(EXT_animation_sqlerp, KHR_animation2, KHR_animation_pointer), samples animations
with a reference evaluator and compares an engine's samples against golden ones.
.PP
.nf
${top_roff}.fi
.SH COMMANDS
")
foreach(command IN LISTS commands)
  gltf_anim_help(text ${command})
  gltf_anim_roff(text_roff "${text}")
  gltf_anim_roff(command_roff "${command}")
  string(APPEND page ".SS ${command_roff}\n.nf\n${text_roff}.fi\n")
endforeach()
string(APPEND page ".SH EXIT STATUS
0 ok, 1 findings (issues at or above \\-\\-fail\\-on, failed conformance cases),
2 usage or I/O error.
.SH SEE ALSO
/usr/share/doc/gltf\\-anim/copyright
")

file(MAKE_DIRECTORY "${GLTF_ANIM_MAN_WORK}")
file(WRITE "${GLTF_ANIM_MAN_WORK}/gltf-anim.1" "${page}")
# Debian's form: gzip -9n (no name or time stamp in the header).
execute_process(COMMAND gzip -9nf "${GLTF_ANIM_MAN_WORK}/gltf-anim.1" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gzip of the manual page failed (${rc})")
endif()
file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${GLTF_ANIM_MAN_DEST}"
  TYPE FILE FILES "${GLTF_ANIM_MAN_WORK}/gltf-anim.1.gz")
