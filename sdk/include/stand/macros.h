/* stand SDK: export, calling-convention and struct-evolution macros. */
#ifndef STAND_MACROS_H
#define STAND_MACROS_H

#include <stddef.h>

#if defined(_WIN32)
#define STAND_ABI __cdecl
#define STAND_EXPORT __declspec(dllexport)
#else
#define STAND_ABI
#define STAND_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
#define STAND_EXTERN_C_BEGIN extern "C" {
#define STAND_EXTERN_C_END }
#else
#define STAND_EXTERN_C_BEGIN
#define STAND_EXTERN_C_END
#endif

/* True when the struct behind `ptr` is large enough to contain `member`
 * (its writer knew about the member) and the member is not NULL/zero.
 * Readers use it before touching any member appended after a struct's v1. */
#define STAND_HAS(ptr, type, member)                                                        \
    ((ptr) != NULL &&                                                                       \
     (ptr)->struct_size >= offsetof(type, member) + sizeof(((type *)0)->member) &&          \
     (ptr)->member)

/* True when the struct behind `ptr` covers `member`, whatever its value. */
#define STAND_COVERS(ptr, type, member)                                                     \
    ((ptr) != NULL && (ptr)->struct_size >= offsetof(type, member) + sizeof(((type *)0)->member))

#endif
