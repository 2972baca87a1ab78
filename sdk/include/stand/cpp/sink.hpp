// stand C++ helpers: stand_sink adapters for std::string.
#pragma once

#include <stand/sink.h>

#include <string>
#include <string_view>

#include "error.hpp"

namespace stand::cpp {

// A sink that appends into a std::string (for calling host services).
class StringSink {
public:
    StringSink() : sink_{sizeof(stand_sink), this, &StringSink::append} {}
    StringSink(const StringSink&) = delete;
    StringSink& operator=(const StringSink&) = delete;

    const stand_sink* get() const noexcept { return &sink_; }
    std::string& str() noexcept { return text_; }

private:
    static stand_result STAND_ABI append(const stand_sink* sink, const char* data, std::size_t size) {
        try {
            static_cast<StringSink*>(sink->context)->text_.append(data, size);
            return STAND_OK;
        } catch (...) {
            return STAND_E_BUFFER_TOO_SMALL;
        }
    }

    stand_sink sink_;
    std::string text_;
};

// Writes `text` into a sink handed over by the host.
inline void write_to(const stand_sink* out, std::string_view text) {
    if (out == nullptr || out->append == nullptr) throw Error(STAND_E_INVALID_ARGUMENT, "no output sink");
    stand_result r = out->append(out, text.data(), text.size());
    if (r < 0) throw Error(r, "host refused output (" + std::string(stand_result_name(r)) + ")");
}

}  // namespace stand::cpp
