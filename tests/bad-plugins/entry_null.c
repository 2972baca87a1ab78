/* Defect: stand_plugin_entry_v1() returns NULL. */
#include "bad_common.h"

STAND_EXPORT const stand_plugin_entry *STAND_ABI stand_plugin_entry_v1(void) { return NULL; }
