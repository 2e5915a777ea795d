/* kiln core: everything below the GPU layer. Math, frustum culling, byte layouts, base64, errors,
 * the log, handle pools, half floats, CPU images and the version. Nothing here touches the GPU. */
#ifndef KILN_CORE_H
#define KILN_CORE_H

#include <kiln/core/base64.h>
#include <kiln/core/bytes.h>
#include <kiln/core/color.h>
#include <kiln/core/containers.h>
#include <kiln/core/error.h>
#include <kiln/core/frustum.h>
#include <kiln/core/half.h>
#include <kiln/core/image.h>
#include <kiln/core/log.h>
#include <kiln/core/math.h>
#include <kiln/core/pool.h>
#include <kiln/core/struct_size.h>
#include <kiln/core/utf8.h>
#include <kiln/version.h>

#endif
