# The Debian package of the command-line tool, made by CPack (DEB generator):
#   cd build && cpack            (or: cpack --preset deb after the "cli" preset)
# gives gltf-anim_<version>-1_<arch>.deb holding /usr/bin/gltf-anim, its manual
# page and /usr/share/doc/gltf-anim/{copyright,changelog.Debian.gz}. Only the install
# component "cli" goes in: the static libraries, headers and CMake package are for
# `cmake --install` (README, "Using it as a library"), not for a tool's package.
# Depends is computed by dpkg-shlibdeps (package dpkg-dev) from the libraries the
# binary really loads. tests/delivery/check-deb.sh checks the result.

set(GLTF_ANIM_PACKAGE_MAINTAINER "gltf-anim maintainers <maintainers@gltf-anim.invalid>"
    CACHE STRING "Maintainer field of the Debian package (Name <address>)")

install(FILES ${PROJECT_SOURCE_DIR}/packaging/copyright
  DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gltf-anim COMPONENT cli)

# Debian wants a gzip -9n changelog.Debian.gz (no name, no time stamp in the
# gzip header, so the package is reproducible). Its date is SOURCE_DATE_EPOCH's
# when set (string(TIMESTAMP) honours it), else the time of configuring.
string(TIMESTAMP GLTF_ANIM_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(GLTF_ANIM_DEB_CHANGELOG ${PROJECT_BINARY_DIR}/packaging/changelog.Debian)
file(WRITE ${GLTF_ANIM_DEB_CHANGELOG}
  "gltf-anim (${PROJECT_VERSION}-1) unstable; urgency=medium\n\n"
  "  * gltf-anim ${PROJECT_VERSION}, the command-line tool, packaged with CPack.\n\n"
  " -- ${GLTF_ANIM_PACKAGE_MAINTAINER}  ${GLTF_ANIM_PACKAGE_DATE}\n")
find_program(GLTF_ANIM_GZIP gzip)
if(GLTF_ANIM_GZIP)
  execute_process(COMMAND ${GLTF_ANIM_GZIP} -9nf ${GLTF_ANIM_DEB_CHANGELOG} RESULT_VARIABLE gzip_rc)
  if(gzip_rc EQUAL 0)
    install(FILES ${GLTF_ANIM_DEB_CHANGELOG}.gz
      DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/gltf-anim COMPONENT cli)
  endif()
endif()

# gltf-anim(1), written at install time from the built executable's --help texts.
install(CODE "
  set(GLTF_ANIM_EXE \"$<TARGET_FILE:gltf-anim>\")
  set(GLTF_ANIM_VERSION \"${PROJECT_VERSION}\")
  set(GLTF_ANIM_MAN_WORK \"${PROJECT_BINARY_DIR}/packaging/man\")
  set(GLTF_ANIM_MAN_DEST \"${CMAKE_INSTALL_MANDIR}/man1\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/manpage.cmake\")" COMPONENT cli)

set(CPACK_PACKAGE_NAME gltf-anim)
set(CPACK_PACKAGE_VENDOR "gltf-anim")
set(CPACK_PACKAGE_CONTACT "${GLTF_ANIM_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "validator and conformance suite for glTF 2.0 animation")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_COMPONENTS_ALL cli)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_PACKAGE_NAME gltf-anim)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The synopsis (first line of Description) is CPACK_PACKAGE_DESCRIPTION_SUMMARY.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "gltf-anim validates glTF 2.0 assets (.gltf, .glb) for animation and what\n"
  "animation touches, including EXT_animation_sqlerp, KHR_animation2 and\n"
  "KHR_animation_pointer, and reports as text, JSON, JUnit or SARIF for CI.\n"
  "It also samples animations with a reference evaluator and compares an\n"
  "engine's samples against golden ones.")
string(REPLACE ";" "" CPACK_DEBIAN_PACKAGE_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
include(CPack)
