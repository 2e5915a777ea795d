/* kiln/assets: CPU descriptions of scene content a loader fills and the renderer consumes. */
#ifndef KILN_ASSETS_H
#define KILN_ASSETS_H

#include <kiln/assets/material.h>

#endif
