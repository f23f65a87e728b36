# Compile settings shared by every ptovp target.

set(PTOVP_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)
if(PTOVP_WERROR)
  list(APPEND PTOVP_WARNINGS -Werror)
endif()

if(PTOVP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

# Applies the project's warnings to a target.
function(ptovp_target_defaults target)
  target_compile_options(${target} PRIVATE ${PTOVP_WARNINGS})
endfunction()

# Numeric code: the order of rounding is the specification, so the compiler
# may not contract a*b+c into an FMA nor reassociate. Never -ffast-math.
function(ptovp_numeric_target target)
  ptovp_target_defaults(${target})
  target_compile_options(${target} PRIVATE -ffp-contract=off -fno-fast-math)
endfunction()

# Exports `folder` (a source folder named like its include prefix: modules/cube,
# platform/engine) as the one include root of `target`, so that users write
# `#include "cube/cube.hpp"` and see no other library's headers unless
# they link that library too. The root is a per-target folder in the build
# tree holding a single symbolic link to the source folder.
function(ptovp_export_folder target folder)
  get_filename_component(name ${folder} NAME)
  set(root ${PROJECT_BINARY_DIR}/include/${target})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${folder} ${root}/${name} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
endfunction()
