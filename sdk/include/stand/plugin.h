/* stand SDK: the plugin entry point, descriptor and instance protocol.
 *
 * A plugin library exports exactly one symbol, stand_plugin_entry_v1, a
 * function returning a pointer to a static stand_plugin_entry. The host
 * checks the table (ABI major, struct sizes, required members, id syntax,
 * minimum host minor) before it calls anything else in the library.
 *
 * Lifecycle: create() -> get_interface()* -> interface calls -> destroy().
 * The host may create several instances of one plugin, sequentially or at the
 * same time; instances share nothing the plugin did not make shared. */
#ifndef STAND_PLUGIN_H
#define STAND_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#include "host.h"
#include "macros.h"
#include "result.h"
#include "sink.h"
#include "version.h"

/* Opaque to the host: each plugin defines struct stand_instance as it likes. */
typedef struct stand_instance stand_instance;

/* Plugin id syntax: 1-64 chars of [a-z0-9._-], starting with [a-z0-9]
 * ("nginx", "3x-ui", "org.example.panel"). Stable forever; the user types it.
 * Interface id syntax: dot-separated lowercase words ([a-z0-9-]+), at least
 * two of them, then "/" and a positive decimal revision ("stand.panel/1",
 * "org.example.thing/2"). A breaking change of an interface is a new revision. */
#define STAND_PLUGIN_ID_MAX 64

/* config_schema_json: a JSON object, the JSON Schema of create()'s config,
 * or NULL / "" for none. A property marked "writeOnly": true is a secret (a
 * password, a token): whoever shows or stores a config (a host, a report, a
 * tool) must not show its value. The C++ helpers write the schema from the
 * keys the plugin reads (stand/cpp/config_spec.hpp). */

typedef struct stand_plugin_descriptor {
    uint32_t struct_size;
    const char *id;                 /* see syntax above */
    const char *name;               /* human name, "HAProxy" */
    const char *version;            /* the plugin's own version (semver), not the ABI's */
    const char *description;        /* one or two sentences, may be "" */
    const char *const *interfaces;  /* NULL-terminated list of interface ids it implements */
    const char *config_schema_json; /* JSON Schema (draft 2020-12) of create()'s config */
    uint32_t min_host_abi_minor;    /* the host must implement at least this ABI minor */
} stand_plugin_descriptor;

typedef struct stand_plugin_entry {
    uint32_t struct_size;
    stand_abi_version abi; /* STAND_ABI_MAJOR/MINOR as the plugin was compiled */

    /* Plugin-owned static data, valid until the library is unloaded. */
    const stand_plugin_descriptor *descriptor;

    /* Creates one instance. [control]
     * `host` outlives the instance; the plugin may keep the pointer.
     * `config_json` is UTF-8 JSON of `config_len` bytes (not necessarily
     * NUL-terminated), only read during the call; "{}" means defaults.
     * On success sets *out_instance (plugin-owned until destroy()) and returns
     * STAND_OK. On failure leaves *out_instance NULL, writes a message into
     * `err` and returns < 0: STAND_E_INVALID_ARGUMENT for a config that is
     * not JSON or does not match the schema (the message names the field),
     * STAND_E_IO/STAND_E_INTERNAL otherwise. Must not start long work: no
     * install, no network; that is what interfaces are for. */
    stand_result(STAND_ABI *create)(const stand_host *host, const char *config_json,
                                    size_t config_len, stand_instance **out_instance,
                                    stand_error *err);

    /* Destroys an instance: joins anything it started, releases everything.
     * [control] Never fails. After it returns the host does not use
     * `instance` or any interface table obtained from it. */
    void(STAND_ABI *destroy)(stand_instance *instance);

    /* Returns the instance's table for interface `interface_id`, or NULL if
     * the instance does not implement it. [control] The table is
     * plugin-owned, valid until destroy(), starts with uint32_t struct_size.
     * Must return NULL (not crash) for ids it does not know. */
    const void *(STAND_ABI *get_interface)(stand_instance *instance, const char *interface_id);
} stand_plugin_entry;

typedef const stand_plugin_entry *(STAND_ABI *stand_plugin_entry_fn)(void);

#define STAND_PLUGIN_ENTRY_SYMBOL "stand_plugin_entry_v1"

/* The one exported symbol. [any] Must be cheap, have no side effects and
 * return the same pointer every time. */
STAND_EXTERN_C_BEGIN
STAND_EXPORT const stand_plugin_entry *STAND_ABI stand_plugin_entry_v1(void);
STAND_EXTERN_C_END

#endif
