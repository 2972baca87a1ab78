/* stand SDK: result codes and the caller-owned error buffer.
 *
 * Every fallible call returns a stand_result: 0 is success, > 0 is success
 * with information, < 0 is an error. Callers must treat an unknown negative
 * code as a generic failure and an unknown positive code as success: new codes
 * may be added in a minor version. */
#ifndef STAND_RESULT_H
#define STAND_RESULT_H

#include <stdint.h>

#include "macros.h"

typedef int32_t stand_result;

enum {
    STAND_OK = 0,
    /* Success, but the call had nothing to do (already installed, already stopped). */
    STAND_OK_NOTHING_TO_DO = 1,

    STAND_E_INVALID_ARGUMENT = -1, /* a parameter or the config is wrong */
    STAND_E_UNSUPPORTED = -2,      /* the plugin/host does not do this */
    STAND_E_TIMEOUT = -3,          /* a deadline passed */
    STAND_E_BAD_RESPONSE = -4,     /* the target answered, but not as expected */
    STAND_E_IO = -5,               /* file, socket or process error */
    STAND_E_INTERNAL = -6,         /* a bug or an unexpected exception */
    STAND_E_BUFFER_TOO_SMALL = -7, /* a caller-owned buffer cannot hold the output */
    STAND_E_CANCELLED = -8,        /* the host asked to stop */
    STAND_E_BAD_STATE = -9,        /* the call is not valid in the current state */
    STAND_E_NOT_FOUND = -10,       /* the named thing (user, file, service) does not exist */
    STAND_E_UNREACHABLE = -11      /* the target could not be connected to */
};

#define STAND_SUCCEEDED(r) ((r) >= 0)
#define STAND_FAILED(r) ((r) < 0)

/* Error detail. Owned by the caller of the function that receives it; the
 * callee writes a NUL-terminated UTF-8 message of at most capacity-1 bytes
 * into `message` (truncating if needed) and never keeps the pointer. A NULL
 * stand_error* or a zero capacity means "no detail wanted". */
typedef struct stand_error {
    uint32_t struct_size;
    uint32_t capacity;
    char *message;
} stand_error;

/* A short stable name for a result code ("invalid-argument"); never NULL. */
static inline const char *stand_result_name(stand_result r) {
    switch (r) {
    case STAND_OK: return "ok";
    case STAND_OK_NOTHING_TO_DO: return "ok-nothing-to-do";
    case STAND_E_INVALID_ARGUMENT: return "invalid-argument";
    case STAND_E_UNSUPPORTED: return "unsupported";
    case STAND_E_TIMEOUT: return "timeout";
    case STAND_E_BAD_RESPONSE: return "bad-response";
    case STAND_E_IO: return "io-error";
    case STAND_E_INTERNAL: return "internal-error";
    case STAND_E_BUFFER_TOO_SMALL: return "buffer-too-small";
    case STAND_E_CANCELLED: return "cancelled";
    case STAND_E_BAD_STATE: return "bad-state";
    case STAND_E_NOT_FOUND: return "not-found";
    case STAND_E_UNREACHABLE: return "unreachable";
    default: return r > 0 ? "ok-unknown-info" : "unknown-error";
    }
}

#endif
