/* stb_image's implementation, compiled into the image and glTF fuzz targets so that the decoder
 * carries ASan, UBSan and libFuzzer's coverage. The normal builds link Debian's libstb instead
 * (src/core/CMakeLists.txt); the definitions here take precedence over the shared library's, as
 * an executable's symbols do. The header is the one the system's libstb was built from. */
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
