/* custom-node.h — "swell", a node type written outside the library
 * (custom-node.c), as a game writes its own. */
#pragma once

#include <wavegraph.h>

/* Register with wg_node_type_register (&swell_node_type, &error). */
extern const WgNodeType swell_node_type;
