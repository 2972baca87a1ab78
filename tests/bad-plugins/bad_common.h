/* Shared baseline of the deliberately broken plugins in tests/bad-plugins/.
 *
 * Every bad plugin is this baseline plus exactly one defect, so a test can
 * assert the one refusal or failed check the defect must cause. The baseline
 * on its own (baseline.c) passes `stand compat` and `stand info`.
 *
 * Baseline behaviour: create() accepts exactly the config "{}" (whitespace
 * allowed) and rejects anything else with STAND_E_INVALID_ARGUMENT and a
 * message; destroy() frees; get_interface() returns NULL for every id.
 * Usable from C and C++ (bad_throw*.cpp). */
#ifndef STAND_BAD_COMMON_H
#define STAND_BAD_COMMON_H

#include <stand/plugin.h>

#include <stdlib.h>
#include <string.h>

struct stand_instance {
    int unused;
};

static const char *const bad_no_interfaces[] = {NULL};

/* A v1 descriptor with every member valid except what the caller passes. */
#define BAD_DESCRIPTOR(id_, interfaces_)                                                                 \
    {                                                                                                    \
        (uint32_t)sizeof(stand_plugin_descriptor), (id_), "Bad plugin", "0.0.1",                         \
            "A deliberately broken plugin (tests/bad-plugins).", (interfaces_),                          \
            "{\"type\":\"object\",\"additionalProperties\":false}", 0u                                   \
    }

/* Defines the one exported symbol, returning &entry_. */
#define BAD_EXPORT_ENTRY(entry_)                                                                         \
    STAND_EXTERN_C_BEGIN                                                                                 \
    STAND_EXPORT const stand_plugin_entry *STAND_ABI stand_plugin_entry_v1(void) { return &(entry_); }  \
    STAND_EXTERN_C_END

static inline void bad_set_error(stand_error *err, const char *text) {
    size_t n;
    if (err == NULL || err->capacity == 0 || err->message == NULL) return;
    n = strlen(text);
    if (n > err->capacity - 1) n = err->capacity - 1;
    memcpy(err->message, text, n);
    err->message[n] = '\0';
}

static inline int bad_is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* True when the config is exactly "{}", give or take whitespace. */
static inline int bad_config_is_empty_object(const char *json, size_t len) {
    size_t i = 0;
    const char *expect = "{}";
    if (json == NULL) return 0;
    for (; *expect; ++expect) {
        while (i < len && bad_is_space(json[i])) ++i;
        if (i >= len || json[i] != *expect) return 0;
        ++i;
    }
    while (i < len && bad_is_space(json[i])) ++i;
    return i == len;
}

static inline stand_instance *bad_new_instance(void) {
    return (stand_instance *)calloc(1, sizeof(stand_instance));
}

static inline stand_result STAND_ABI bad_ok_create(const stand_host *host, const char *config_json,
                                                   size_t config_len, stand_instance **out_instance,
                                                   stand_error *err) {
    (void)host;
    *out_instance = NULL;
    if (!bad_config_is_empty_object(config_json, config_len)) {
        bad_set_error(err, "config: this plugin takes no options; pass {}");
        return STAND_E_INVALID_ARGUMENT;
    }
    *out_instance = bad_new_instance();
    if (*out_instance == NULL) {
        bad_set_error(err, "out of memory");
        return STAND_E_INTERNAL;
    }
    return STAND_OK;
}

static inline void STAND_ABI bad_ok_destroy(stand_instance *instance) { free(instance); }

static inline const void *STAND_ABI bad_ok_get_interface(stand_instance *instance, const char *interface_id) {
    (void)instance;
    (void)interface_id;
    return NULL;
}

#endif
