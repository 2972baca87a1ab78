// stand C++ helpers: the exception that carries a stand_result across the
// helper layer, and writing messages into a caller-owned stand_error.
#pragma once

#include <stand/result.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace stand::cpp {

// Throw this from plugin code; the thunks turn it into its code and message.
class Error : public std::runtime_error {
public:
    Error(stand_result code, const std::string& message) : std::runtime_error(message), code_(code) {}
    stand_result code() const noexcept { return code_; }

private:
    stand_result code_;
};

// A config that is not what the schema says: maps to STAND_E_INVALID_ARGUMENT.
class ConfigError : public Error {
public:
    explicit ConfigError(const std::string& message) : Error(STAND_E_INVALID_ARGUMENT, message) {}
};

// Copies `message` into the caller's buffer, truncating at a UTF-8 boundary.
inline void write_error(stand_error* err, const char* message) noexcept {
    if (err == nullptr || err->message == nullptr || err->capacity == 0) return;
    std::size_t n = std::strlen(message);
    if (n >= err->capacity) {
        n = err->capacity - 1;
        while (n > 0 && (static_cast<unsigned char>(message[n]) & 0xC0) == 0x80) --n;
    }
    std::memcpy(err->message, message, n);
    err->message[n] = '\0';
}

// Runs `body` and converts every exception into a result code + message.
// This is what keeps C++ exceptions from ever crossing the C ABI.
template <class Body>
stand_result guarded(stand_error* err, Body&& body) noexcept {
    try {
        return body();
    } catch (const Error& e) {
        write_error(err, e.what());
        return e.code() < 0 ? e.code() : STAND_E_INTERNAL;
    } catch (const std::bad_alloc&) {
        write_error(err, "out of memory");
        return STAND_E_INTERNAL;
    } catch (const std::exception& e) {
        write_error(err, e.what());
        return STAND_E_INTERNAL;
    } catch (...) {
        write_error(err, "unknown C++ exception");
        return STAND_E_INTERNAL;
    }
}

}  // namespace stand::cpp
