// stand C++ helpers: a thin, throwing wrapper over the host table and its
// services. Every method throws stand::cpp::Error with the host's message.
#pragma once

#include <stand/host.h>
#include <stand/service/clock.h>
#include <stand/service/files.h>
#include <stand/service/http.h>
#include <stand/service/process.h>
#include <stand/service/progress.h>
#include <stand/service/secrets.h>

#include <boost/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

#include "error.hpp"
#include "sink.hpp"

namespace stand::cpp {

class Host {
public:
    explicit Host(const stand_host* host) : host_(host) {}
    const stand_host* get() const noexcept { return host_; }

    void log(int32_t level, const std::string& message) const {
        if (host_ && host_->log) host_->log(host_, level, message.c_str());
    }
    void info(const std::string& message) const { log(STAND_LOG_INFO, message); }
    void warn(const std::string& message) const { log(STAND_LOG_WARNING, message); }

    // The service table for `id`, or an Error(STAND_E_UNSUPPORTED) naming it.
    template <class Table>
    const Table& service(const char* id) const {
        const void* p = host_ && host_->get_service ? host_->get_service(host_, id) : nullptr;
        if (p == nullptr) throw Error(STAND_E_UNSUPPORTED, std::string("host does not offer ") + id);
        return *static_cast<const Table*>(p);
    }
    // The same, nullptr when the host does not offer it.
    template <class Table>
    const Table* find_service(const char* id) const {
        return static_cast<const Table*>(host_ && host_->get_service ? host_->get_service(host_, id) : nullptr);
    }

    // stand.progress/1: whether the user asked to stop, and a progress line.
    // Both do nothing when the host offers no progress service.
    bool cancelled() const {
        const auto* p = find_service<stand_progress_service>(STAND_PROGRESS_SERVICE_ID);
        return p != nullptr && p->cancelled != nullptr && p->cancelled(host_) != 0;
    }
    void report_progress(double fraction, const char* message) const {
        const auto* p = find_service<stand_progress_service>(STAND_PROGRESS_SERVICE_ID);
        if (p != nullptr && p->report != nullptr) p->report(host_, fraction, message);
    }

    // stand.secrets/1: `value` is a secret; the host hides it wherever it
    // writes or prints text. Does nothing on a host without the service.
    void mark_secret(std::string_view value) const {
        const auto* s = find_service<stand_secrets_service>(STAND_SECRETS_SERVICE_ID);
        if (s != nullptr && s->mark != nullptr) s->mark(host_, value.data(), value.size());
    }

    std::uint64_t monotonic_ns() const {
        const auto& c = service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        return c.monotonic_ns(host_);
    }

    std::uint64_t wall_ns() const {
        const auto& c = service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        return c.wall_ns(host_);
    }
    // Sleeps on the host's clock; Error(STAND_E_CANCELLED) when the host
    // cancels the current call meanwhile (Ctrl-C). `ms` <= 0 returns at once.
    void sleep_ms(std::int64_t ms) const {
        if (ms <= 0) return;
        const auto& c = service<stand_clock_service>(STAND_CLOCK_SERVICE_ID);
        if (c.sleep_ns(host_, static_cast<std::uint64_t>(ms) * 1000000ULL) == STAND_E_CANCELLED)
            throw Error(STAND_E_CANCELLED, "cancelled");
    }

    std::string data_dir() const {
        const auto& f = service<stand_files_service>(STAND_FILES_SERVICE_ID);
        return call_to_string([&](const stand_sink* s, stand_error* e) { return f.data_dir(host_, s, e); });
    }
    std::string run_dir() const {
        const auto& f = service<stand_files_service>(STAND_FILES_SERVICE_ID);
        return call_to_string([&](const stand_sink* s, stand_error* e) { return f.run_dir(host_, s, e); });
    }

    // Calls a host function that writes into a sink; returns what it wrote.
    template <class Call>
    static std::string call_to_string(Call&& call) {
        StringSink sink;
        char message[512] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        stand_result r = call(sink.get(), &err);
        if (r < 0) throw Error(r, message[0] ? message : stand_result_name(r));
        return std::move(sink.str());
    }

    // Checks a result of a host call, throwing its message.
    static void check(stand_result r, const char* message) {
        if (r < 0) throw Error(r, message && message[0] ? message : stand_result_name(r));
    }

private:
    const stand_host* host_;
};

// An HTTP session of stand.http/1; closed on destruction.
class HttpSession {
public:
    HttpSession(const Host& host, const boost::json::object& options = {})
        : host_(host), http_(host.service<stand_http_service>(STAND_HTTP_SERVICE_ID)) {
        char message[512] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        std::string text = boost::json::serialize(options);
        Host::check(http_.session_open(host_.get(), text.c_str(), &session_, &err), message);
    }
    ~HttpSession() { http_.session_close(host_.get(), session_); }
    HttpSession(const HttpSession&) = delete;
    HttpSession& operator=(const HttpSession&) = delete;

    // Sends a request (see service/http.h) and returns the parsed response.
    boost::json::object request(const boost::json::object& req) const {
        std::string text = boost::json::serialize(req);
        std::string response = Host::call_to_string([&](const stand_sink* s, stand_error* e) {
            return http_.request(host_.get(), session_, text.c_str(), s, e);
        });
        return boost::json::parse(response).as_object();
    }

private:
    Host host_;
    const stand_http_service& http_;
    stand_http_session session_ = 0;
};

// A child process of stand.process/1; released (killed if running) on destruction.
class Process {
public:
    Process(const Host& host, const boost::json::object& spec)
        : host_(host), proc_(host.service<stand_process_service>(STAND_PROCESS_SERVICE_ID)) {
        char message[512] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        std::string text = boost::json::serialize(spec);
        Host::check(proc_.spawn(host_.get(), text.c_str(), &handle_, &err), message);
    }
    ~Process() {
        if (handle_ != 0) proc_.release(host_.get(), handle_);
    }
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    stand_result signal(int sig) {
        char message[512] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        stand_result r = proc_.signal(host_.get(), handle_, sig, &err);
        Host::check(r, message);
        return r;
    }
    // Waits up to timeout_ms; returns true when it ended (status filled).
    bool wait(std::int64_t timeout_ms, stand_process_status& status) {
        char message[512] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        status = stand_process_status{sizeof(stand_process_status), 0, 0, 0, 0};
        stand_result r = proc_.wait(host_.get(), handle_, timeout_ms, &status, &err);
        if (r == STAND_E_TIMEOUT) return false;
        Host::check(r, message);
        return true;
    }

private:
    Host host_;
    const stand_process_service& proc_;
    stand_process handle_ = 0;
};

}  // namespace stand::cpp
