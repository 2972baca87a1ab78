// The C tables of the host services. Each thunk finds the calling plugin's
// PluginHost through host_data and converts exceptions into result codes, so
// no C++ exception ever reaches plugin code.
#include "host/plugin_host.hpp"

#include <stand/cpp/error.hpp>
#include <stand/cpp/sink.hpp>
#include <stand/stand.h>

#include <boost/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>
#include <time.h>

namespace stand::host {
namespace {

using cpp::guarded;

PluginHost& plugin(const stand_host* host) {
    if (host == nullptr || host->host_data == nullptr) throw cpp::Error(STAND_E_INVALID_ARGUMENT, "host pointer is NULL");
    return PluginHost::from(host);
}

boost::json::object parse_object(const char* text, const char* what, bool null_is_empty) {
    if (text == nullptr) {
        if (null_is_empty) return {};
        throw cpp::Error(STAND_E_INVALID_ARGUMENT, std::string(what) + " is NULL");
    }
    boost::system::error_code ec;
    auto value = boost::json::parse(text, ec);
    if (ec) throw cpp::Error(STAND_E_INVALID_ARGUMENT, std::string(what) + " is not valid JSON: " + ec.message());
    if (!value.is_object()) throw cpp::Error(STAND_E_INVALID_ARGUMENT, std::string(what) + " must be a JSON object");
    return std::move(value.as_object());
}

uint64_t clock_ns(clockid_t id) {
    timespec ts{};
    clock_gettime(id, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// How often a blocking host call looks at the instance's cancellation.
constexpr int64_t kCancelPollMs = 20;

// ---- stand.clock/1
uint64_t STAND_ABI monotonic_ns(const stand_host*) { return clock_ns(CLOCK_MONOTONIC); }
uint64_t STAND_ABI wall_ns(const stand_host*) { return clock_ns(CLOCK_REALTIME); }
stand_result STAND_ABI sleep_ns(const stand_host* host, uint64_t duration_ns) {
    return guarded(nullptr, [&] {
        PluginHost& p = plugin(host);
        auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds(duration_ns);
        while (true) {
            if (p.cancelled()) return STAND_E_CANCELLED;
            auto now = std::chrono::steady_clock::now();
            if (now >= deadline) return STAND_OK;
            std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(deadline - now, std::chrono::milliseconds(kCancelPollMs)));
        }
    });
}
constexpr stand_clock_service kClock{sizeof(stand_clock_service), &monotonic_ns, &wall_ns, &sleep_ns};

// ---- stand.files/1
stand_result STAND_ABI run_dir(const stand_host* host, const stand_sink* out, stand_error* err) {
    return guarded(err, [&] {
        cpp::write_to(out, plugin(host).run_dir().string());
        return STAND_OK;
    });
}
stand_result STAND_ABI data_dir(const stand_host* host, const stand_sink* out, stand_error* err) {
    return guarded(err, [&] {
        cpp::write_to(out, plugin(host).data_dir().string());
        return STAND_OK;
    });
}
constexpr stand_files_service kFiles{sizeof(stand_files_service), &run_dir, &data_dir};

// ---- stand.progress/1
void STAND_ABI report(const stand_host* host, double fraction, const char* message) {
    guarded(nullptr, [&] {
        plugin(host).report_progress(fraction, message ? message : "");
        return STAND_OK;
    });
}
int32_t STAND_ABI cancelled(const stand_host* host) { return host && host->host_data && plugin(host).cancelled() ? 1 : 0; }
constexpr stand_progress_service kProgress{sizeof(stand_progress_service), &report, &cancelled};

// ---- stand.http/1
stand_result STAND_ABI session_open(const stand_host* host, const char* options, stand_http_session* out, stand_error* err) {
    return guarded(err, [&] {
        if (out == nullptr) throw cpp::Error(STAND_E_INVALID_ARGUMENT, "out_session is NULL");
        *out = plugin(host).http().open_session(parse_object(options, "session options", true));
        return STAND_OK;
    });
}
void STAND_ABI session_close(const stand_host* host, stand_http_session session) {
    guarded(nullptr, [&] {
        plugin(host).http().close_session(session);
        return STAND_OK;
    });
}
stand_result STAND_ABI request(const stand_host* host, stand_http_session session, const char* request_json,
                               const stand_sink* response, stand_error* err) {
    return guarded(err, [&] {
        auto result = plugin(host).http().request(session, parse_object(request_json, "request", false));
        cpp::write_to(response, boost::json::serialize(result));
        return STAND_OK;
    });
}
constexpr stand_http_service kHttp{sizeof(stand_http_service), &session_open, &session_close, &request};

// ---- stand.process/1
stand_result STAND_ABI spawn(const stand_host* host, const char* spec, stand_process* out, stand_error* err) {
    return guarded(err, [&] {
        if (out == nullptr) throw cpp::Error(STAND_E_INVALID_ARGUMENT, "out_process is NULL");
        *out = plugin(host).processes().spawn(parse_object(spec, "spawn spec", false));
        return STAND_OK;
    });
}
stand_result STAND_ABI signal(const stand_host* host, stand_process process, int32_t sig, stand_error* err) {
    return guarded(err, [&] { return plugin(host).processes().signal(process, sig); });
}
stand_result STAND_ABI wait(const stand_host* host, stand_process process, int64_t timeout_ms,
                            stand_process_status* status, stand_error* err) {
    return guarded(err, [&] {
        if (status == nullptr || status->struct_size < sizeof(stand_process_status))
            throw cpp::Error(STAND_E_INVALID_ARGUMENT, "status is NULL or its struct_size is too small");
        PluginHost& p = plugin(host);
        stand_process_status s{sizeof(stand_process_status), STAND_PROCESS_RUNNING, 0, 0, 0};
        // In slices, so that cancellation ends a long wait (process.h: STAND_E_CANCELLED).
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::max<int64_t>(timeout_ms, 0));
        while (true) {
            const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
            const int64_t slice = timeout_ms < 0 ? kCancelPollMs : std::clamp<int64_t>(left, 0, kCancelPollMs);
            const bool ended = p.processes().wait(process, slice, s);
            *status = s;
            if (ended) return STAND_OK;
            if (timeout_ms >= 0 && left <= slice) return STAND_E_TIMEOUT;
            if (p.cancelled())
                throw cpp::Error(STAND_E_CANCELLED, "cancelled while waiting for process " + std::to_string(s.pid));
        }
    });
}
void STAND_ABI release(const stand_host* host, stand_process process) {
    guarded(nullptr, [&] {
        plugin(host).processes().release(process);
        return STAND_OK;
    });
}
stand_result STAND_ABI output_path(const stand_host* host, stand_process process, const stand_sink* out, stand_error* err) {
    return guarded(err, [&] {
        cpp::write_to(out, plugin(host).processes().output_path(process));
        return STAND_OK;
    });
}
constexpr stand_process_service kProcess{sizeof(stand_process_service), &spawn, &signal, &wait, &release, &output_path};

// ---- stand.secrets/1
void STAND_ABI mark(const stand_host* host, const char* value, size_t len) {
    guarded(nullptr, [&] {
        if (value != nullptr) plugin(host).mark_secret(std::string_view(value, len));
        return STAND_OK;
    });
}
constexpr stand_secrets_service kSecrets{sizeof(stand_secrets_service), &mark};

}  // namespace

const void* find_service(const char* id) {
    if (std::strcmp(id, STAND_CLOCK_SERVICE_ID) == 0) return &kClock;
    if (std::strcmp(id, STAND_FILES_SERVICE_ID) == 0) return &kFiles;
    if (std::strcmp(id, STAND_PROGRESS_SERVICE_ID) == 0) return &kProgress;
    if (std::strcmp(id, STAND_HTTP_SERVICE_ID) == 0) return &kHttp;
    if (std::strcmp(id, STAND_PROCESS_SERVICE_ID) == 0) return &kProcess;
    if (std::strcmp(id, STAND_SECRETS_SERVICE_ID) == 0) return &kSecrets;
    return nullptr;
}

}  // namespace stand::host
